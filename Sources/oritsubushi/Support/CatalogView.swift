import LedgerCatalog
import LedgerCore

/// What the catalogue-only commands (`station find`, `map`, `nearby`) read: a ledger's catalogue
/// and completions, or, when there is no ledger at the path, the bundled catalogue with nothing
/// completed, so that they answer before (or without) `init` (docs/ledger-cli.md
/// "Before `init`: the bundled catalogue"). The second case says so once on stderr.
struct CatalogView {
    let catalog: CatalogStore
    let projection: CompletionsProjection
    /// The ledger's catalogue as a resolver for STATION arguments.
    let resolver: () throws -> StationResolver
    private let ledger: Ledger?

    static func open(_ options: LedgerOptions) throws -> CatalogView {
        guard options.exists else {
            Terminal.error("note: no ledger at \(options.directory); showing the bundled catalogue \(BundledCatalog.version), nothing completed")
            let catalog = try CatalogStore.bundled()
            return CatalogView(catalog: catalog, projection: CompletionsProjection(),
                               resolver: { StationResolver(snapshot: try catalog.loadSnapshot()) }, ledger: nil)
        }
        let ledger = try options.openForReading()
        do {
            let catalog = try CatalogSupport.requireCatalog(ledger)
            return CatalogView(catalog: catalog, projection: try ProjectionUpdater.update(ledger),
                               resolver: { try StationQualifierOptions.resolver(ledger) }, ledger: ledger)
        } catch {
            ledger.close()
            throw error
        }
    }

    /// The `s_id` that `text` names, as `StationQualifierOptions.resolve` reads it.
    func resolve(_ text: String, _ qualifiers: StationQualifierOptions) throws -> UInt32 {
        if qualifiers.qualifiers.isEmpty, let id = try StationResolver.stationID(text) { return id }
        return try resolver().resolve(text, qualifiers.qualifiers)
    }

    func close() {
        catalog.close()
        ledger?.close()
    }
}
