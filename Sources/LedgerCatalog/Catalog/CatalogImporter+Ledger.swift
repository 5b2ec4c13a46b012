import LedgerCore

extension CatalogImporter {
    /// What `catalog import` does to a ledger (Schemas/projection.md §4): applies the dump to a copy
    /// of the catalogue, appends the catalogue-version record (unless the log has one) and the
    /// events every recorded carry-over owes (`CarryOverPlanner`), only then puts the new
    /// catalogue in place, and saves the caught-up
    /// projection. Returns the importer (its counts and carry-overs) and the events appended.
    package static func apply(
        _ statements: [DumpStatement], file: String, version: UInt32, to ledger: Ledger,
        projection: inout CompletionsProjection
    ) throws -> (importer: CatalogImporter, appended: Int) {
        let importer = try CatalogImporter(ledgerDirectory: ledger.directory, file: file, statements: statements,
                                           version: version, projection: projection, fileSystem: ledger.fileSystem)
        var appended = 0
        do {
            let recordsVersion = !projection.catalogVersions.contains(version)
            let nextSeq = (ledger.versionVector[ledger.localDevice] ?? 0) + (recordsVersion ? 2 : 1)
            let drafts = CarryOverPlanner.drafts(for: importer.recorded, projection: projection,
                                                 device: ledger.localDevice, nextSeq: nextSeq)
            if recordsVersion { try ledger.appendCatalogVersion(version) }
            if !drafts.isEmpty { appended = try ledger.appendLocal(drafts).count }
            try importer.commit()
        } catch {
            importer.abort()
            throw error
        }
        try projection.catchUp(ledger)
        try ProjectionStore.save(&projection, ledger: ledger)
        return (importer, appended)
    }
}
