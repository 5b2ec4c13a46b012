import LedgerCatalog
import LedgerCore
import LedgerTestSupport
import Testing

/// Power loss at every file operation of a session that imports two catalogues, the second
/// with a carry-over (CatalogSession.importCatalogues): reopening gives the catalogue of the last
/// import that returned or of the one in progress, never a broken file, and running the imports
/// again completes them with the carry-over applied exactly once.
@Suite struct CatalogImportCrashTests {
    @Test func theSessionWritesTheCatalogueThroughTheFileSystem() throws {
        let (_, log) = CatalogSession.operations(CatalogSession.importCatalogues)
        let catalogueOperations = log.filter { $0.contains("catalog.sqlite") }
        print("catalogue import session: \(log.count) operations, \(catalogueOperations.count) on catalog.sqlite*")
        for kind in ["createFile", "write", "sync", "rename"] {
            #expect(catalogueOperations.contains { $0.hasPrefix(kind + " ") }, "no \(kind): \(catalogueOperations)")
        }
    }

    /// Each crash point replays two imports, so fewer models than for the projection alone.
    @Test(arguments: [CrashOptions.powerLoss, .processKill, .powerLoss(keepingRandomPrefix: 1)])
    func crashAtEveryOperation(model: CrashOptions) throws {
        let (points, failures) = CatalogSession.crashAtEveryPoint(CatalogSession.importCatalogues, model: model, check: Self.check)
        print("catalogue import, \(model): \(points) crash points, failures \(failures.count)")
        #expect(failures.isEmpty, "\(failures.count) of \(points) crash points failed:\n\(failures.prefix(8).joined(separator: "\n"))")
    }

    static func check(_ image: CrashableFileSystem, _ progress: CatalogSession.Progress) throws {
        guard let ledger = try CatalogSession.reopen(image, progress) else { return }
        defer { ledger.close() }
        let catalog = try CatalogStore.open(ledger)
        let allowed = [progress.importedVersions.last, progress.importingVersion].compactMap { $0 }
        if let catalog {
            guard allowed.contains(UInt32(catalog.version)) else {
                throw HarnessLedgerCheck.Failure("the catalogue has version \(catalog.version), neither of \(allowed)")
            }
            let hasNewStation = try catalog.contains(CatalogSession.newStation)
            guard hasNewStation == (catalog.version == 177), try catalog.contains(CatalogSession.source) else {
                throw HarnessLedgerCheck.Failure("catalogue \(catalog.version) holds the wrong stations")
            }
        } else if !progress.importedVersions.isEmpty {
            throw HarnessLedgerCheck.Failure("catalog.sqlite vanished after an import returned")
        }
        let loaded = try ProjectionStore.load(ledger)
        if let reason = loaded.discardedBecause { throw HarnessLedgerCheck.Failure("projection.sqlite \(reason)") }

        // The next commands: the completion if it was lost before being acknowledged (no import
        // had started then), and the imports not yet in place, again.
        if !progress.completed {
            try ledger.appendLocal([CatalogSession.completion])
        }
        let applied = catalog.map { UInt32($0.version) } ?? 0
        for catalogue in CatalogSession.catalogues where catalogue.version > applied {
            try CatalogSession.importCatalogue(catalogue, into: ledger)
        }
        guard let final = try CatalogStore.open(ledger), final.version == 177 else {
            throw HarnessLedgerCheck.Failure("the imports did not complete")
        }
        let projection = try ProjectionStore.load(ledger)
        try ProjectionSaveCrashTests.expectFold(ledger, projection)
        guard let carried = projection.row(CatalogSession.newStation), carried.compDate == 20130901, carried.events == 1 else {
            throw HarnessLedgerCheck.Failure("the carry-over is not applied exactly once: \(String(describing: projection.row(CatalogSession.newStation)))")
        }
        guard projection.catalogVersions == [176, 177] else {
            throw HarnessLedgerCheck.Failure("catalogue versions in the log: \(projection.catalogVersions.sorted())")
        }
        let leftovers = try image.listDirectory(CatalogSession.directory).filter { $0.hasPrefix("catalog.sqlite") && $0 != "catalog.sqlite" }
        guard leftovers.isEmpty else { throw HarnessLedgerCheck.Failure("left behind: \(leftovers)") }
    }
}
