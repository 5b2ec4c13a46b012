import LedgerCatalog
import LedgerSync

/// Which station ids the server accepts: the stations of DATA/catalog.sqlite (a copy of a
/// ledger's catalogue, made by 'catalog import'), enabled or not; without one, any positive id.
enum ServerCatalog {
    static func stations(dataDirectory: String) throws -> any StationDirectory {
        guard let catalog = try CatalogStore.open(ledgerDirectory: dataDirectory) else { return AnyPositiveStation() }
        defer { catalog.close() }
        return StationSet(Set(try catalog.loadSnapshot().stations.map(\.id)))
    }
}
