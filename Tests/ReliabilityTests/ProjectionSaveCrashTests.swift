@testable import LedgerCatalog
import LedgerCore
import LedgerTestSupport
import Testing

/// Power loss at every file operation of a session that creates, replaces and rebuilds
/// `projection.sqlite` (CatalogSession.saveProjection): reopening gives the projection of the
/// last save that returned or of the one in progress, never an unreadable file, and the next
/// command works.
@Suite struct ProjectionSaveCrashTests {
    static let models: [CrashOptions] = [.powerLoss, .powerLossKeepingData, .processKill,
                                         .powerLoss(keepingRandomPrefix: 1), .powerLoss(keepingRandomPrefix: 2)]

    @Test func theSessionWritesTheProjectionThroughTheFileSystem() throws {
        let (_, log) = CatalogSession.operations(CatalogSession.saveProjection)
        let projectionOperations = log.filter { $0.contains("projection.sqlite") }
        print("projection save session: \(log.count) operations, \(projectionOperations.count) on projection.sqlite*")
        // Three saves, each: create the temporary, write, fsync, rename, fsync the directory.
        #expect(projectionOperations.count >= 12, "\(projectionOperations)")
        for kind in ["createFile", "write", "sync", "rename"] {
            #expect(projectionOperations.contains { $0.hasPrefix(kind + " ") }, "no \(kind): \(projectionOperations)")
        }
        #expect(log.contains("syncDirectory /ledger"))
    }

    @Test(arguments: models)
    func crashAtEveryOperation(model: CrashOptions) throws {
        let (points, failures) = CatalogSession.crashAtEveryPoint(CatalogSession.saveProjection, model: model, check: Self.check)
        print("projection save, \(model): \(points) crash points, failures \(failures.count)")
        #expect(failures.isEmpty, "\(failures.count) of \(points) crash points failed:\n\(failures.prefix(8).joined(separator: "\n"))")
    }

    /// The stored projection is the old or the new one and equals the fold of the log once caught
    /// up; then a `complete` and its save work and leave no temporary behind.
    static func check(_ image: CrashableFileSystem, _ progress: CatalogSession.Progress) throws {
        guard let ledger = try CatalogSession.reopen(image, progress) else { return }
        defer { ledger.close() }
        let loaded = try ProjectionStore.load(ledger)
        if let reason = loaded.discardedBecause { throw HarnessLedgerCheck.Failure("projection.sqlite \(reason)") }
        let allowed = [progress.savedPositions.last, progress.savingPosition].compactMap { $0 }
        if let stored = loaded.storedPosition {
            guard allowed.contains(stored) else {
                throw HarnessLedgerCheck.Failure("the stored checkpoint is at \(stored), neither of \(allowed)")
            }
        } else if !progress.savedPositions.isEmpty {
            throw HarnessLedgerCheck.Failure("projection.sqlite vanished after a save returned")
        }
        try expectFold(ledger, loaded)

        try ledger.appendLocal([StationEditDraft(station: 99, compDate: .year(2020))])
        try ProjectionStore.update(ledger)
        let after = try ProjectionStore.load(ledger)
        guard after.discardedBecause == nil, after.storedPosition == ledger.recordCount else {
            throw HarnessLedgerCheck.Failure("after the next command: checkpoint \(String(describing: after.storedPosition)) of \(ledger.recordCount), \(after.discardedBecause ?? "")")
        }
        try expectFold(ledger, after)
        let leftovers = try image.listDirectory(CatalogSession.directory).filter { $0.hasPrefix("projection.sqlite") && $0 != "projection.sqlite" }
        guard leftovers.isEmpty else { throw HarnessLedgerCheck.Failure("left behind: \(leftovers)") }
    }

    static func expectFold(_ ledger: Ledger, _ projection: CompletionsProjection) throws {
        let full = try CompletionsProjection.fold(ledger)
        guard projection.sortedRows().map(\.station) == full.sortedRows().map(\.station),
              projection.sortedRows().map(\.row) == full.sortedRows().map(\.row) else {
            throw HarnessLedgerCheck.Failure("the projection differs from the fold of the log")
        }
    }
}
