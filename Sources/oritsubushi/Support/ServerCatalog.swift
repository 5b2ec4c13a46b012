import Foundation
import LedgerCore
import LedgerCatalog
import LedgerSync

/// Which station ids the server accepts: the stations of DATA/catalog.sqlite (a copy of a
/// ledger's catalogue, made by 'catalog import'), enabled or not; without one, any positive id.
enum ServerCatalog {
    static func stations(dataDirectory: String) throws -> any StationDirectory {
        guard let catalog = try CatalogStore.open(ledgerDirectory: dataDirectory) else { return AnyPositiveStation() }
        return try stations(of: catalog)
    }

    /// `serve --catalog LEDGER_DIR`: that ledger's catalogue, which must exist (exit 66).
    static func stations(ledgerDirectory: String) throws -> any StationDirectory {
        guard let catalog = try CatalogStore.open(ledgerDirectory: ledgerDirectory) else {
            throw LedgerError(.missingLedger, "\(ledgerDirectory) holds no station catalogue (catalog.sqlite); run 'oritsubushi catalog import' there first")
        }
        return try stations(of: catalog)
    }

    /// `GET /v1/catalog`'s document (Schemas/catalog-document.md): the catalogue of
    /// `--catalog LEDGER_DIR` when given, else the bundled one, as compact JSON.
    static func document(ledgerDirectory: String?) throws -> [UInt8] {
        let catalog = try ledgerDirectory.map { directory in
            guard let store = try CatalogStore.open(ledgerDirectory: directory) else {
                throw LedgerError(.missingLedger, "\(directory) holds no station catalogue (catalog.sqlite); run 'oritsubushi catalog import' there first")
            }
            return store
        } ?? CatalogStore.bundled()
        defer { catalog.close() }
        return try JSONEncoding.readable.encode(CatalogDocument(try catalog.loadSnapshot()))
    }

    private static func stations(of catalog: CatalogStore) throws -> any StationDirectory {
        defer { catalog.close() }
        return StationSet(Set(try catalog.loadSnapshot().stations.map(\.id)))
    }
}
