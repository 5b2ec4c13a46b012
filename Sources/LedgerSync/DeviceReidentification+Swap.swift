import Foundation
import LedgerCore

/// Swapping a rebuilt ledger in (Schemas/merge.md §10, "Crash safety").
///
/// The new ledger is built complete in `DIR/rewrite.new/`. Then a quarantine run is created
/// holding a `REWRITING` marker (the commit point), and the files move by renames, each made
/// durable: the derived files, `ledger.json` and `segments/` into the run, then the new
/// `segments/` and `ledger.json` into `DIR`. The marker is removed, then `rewrite.new/`.
///
/// So the ledger is in transition exactly while `rewrite.new/` exists, and every command that
/// opens the ledger first calls `finishInterrupted`: with a marked run it redoes the moves not
/// yet made (each is "move if the source is there and the target is not"), without one it
/// removes the unfinished build. A crash leaves the old ledger or the new one, never a mix.
extension DeviceReidentification {
    package static let stagingDirectory = "rewrite.new"
    package static let unfinishedMarker = "REWRITING"

    /// Finishes (or undoes) a swap a crash interrupted, under the ledger's lock. Returns the
    /// quarantine run it finished, if any. Costs one `stat` when there is nothing to do.
    @discardableResult
    package static func finishInterrupted(directory: String, fileSystem: any FileSystem,
                                          derivedFiles: [String]) throws -> String? {
        let staging = Path.join(directory, stagingDirectory)
        guard fileSystem.directoryExists(staging) else { return nil }
        let lock = try LedgerLock.acquire(directory: directory)
        defer { lock.release() }
        guard fileSystem.directoryExists(staging) else { return nil }
        let quarantine = Quarantine(ledgerDirectory: directory, fileSystem: fileSystem)
        guard let run = try quarantine.unfinishedRuns(marker: unfinishedMarker).last else {
            // Not committed: the old ledger is whole, and the build is only a derived copy.
            try removeStaging(staging, fileSystem: fileSystem)
            return nil
        }
        try moveFiles(directory: directory, run: run, fileSystem: fileSystem, derivedFiles: derivedFiles)
        return Path.join(Quarantine.directoryName, run)
    }

    /// Commits the built ledger and swaps it in. Returns the quarantine run (relative path).
    static func swap(into directory: String, fileSystem: any FileSystem, clock: any WallClock,
                     derivedFiles: [String], note: String) throws -> String {
        let quarantine = Quarantine(ledgerDirectory: directory, fileSystem: fileSystem)
        let run = try quarantine.beginRun(at: clock.nowMilliseconds(), marker: unfinishedMarker, note: note)
        try moveFiles(directory: directory, run: run, fileSystem: fileSystem, derivedFiles: derivedFiles)
        return Path.join(Quarantine.directoryName, run)
    }

    private static func moveFiles(directory: String, run: String, fileSystem: any FileSystem, derivedFiles: [String]) throws {
        let target = Path.join(Path.join(directory, Quarantine.directoryName), run)
        let staging = Path.join(directory, stagingDirectory)
        func move(_ from: String, _ to: String) throws {
            guard fileSystem.fileExists(from) || fileSystem.directoryExists(from),
                  !fileSystem.fileExists(to), !fileSystem.directoryExists(to) else { return }
            try fileSystem.rename(from, to: to)
            try fileSystem.syncDirectory(Path.parent(of: to))
            try fileSystem.syncDirectory(Path.parent(of: from))
        }
        for name in derivedFiles { try move(Path.join(directory, name), Path.join(target, name)) }
        for name in [LedgerMetadata.fileName, Ledger.segmentsDirectory] {
            try move(Path.join(directory, name), Path.join(target, name))
        }
        for name in [Ledger.segmentsDirectory, LedgerMetadata.fileName] {
            try move(Path.join(staging, name), Path.join(directory, name))
        }
        try fileSystem.removeFileIfPresent(Path.join(target, unfinishedMarker))
        try fileSystem.syncDirectory(target)
        try removeStaging(staging, fileSystem: fileSystem)
    }

    /// Removes the build directory and what is left in it (nothing of the live ledger).
    static func removeStaging(_ staging: String, fileSystem: any FileSystem) throws {
        guard fileSystem.directoryExists(staging) else { return }
        do { try FileManager.default.removeItem(atPath: staging) } catch {
            throw LedgerError(.io, "cannot remove \(staging): \(error.localizedDescription)")
        }
        try fileSystem.syncDirectory(Path.parent(of: staging))
    }
}
