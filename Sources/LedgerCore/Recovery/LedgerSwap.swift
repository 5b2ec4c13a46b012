import Foundation

/// Swapping a rebuilt ledger in, crash-safely (Schemas/merge.md §10, "Crash safety"): what a
/// rewrite of the whole log (`DeviceReidentification` in LedgerSync) commits with.
///
/// The new ledger is built complete in `DIR/rewrite.new/`. Then a quarantine run is created
/// holding a `REWRITING` marker (the commit point), and the files move by renames, each made
/// durable: the derived files, `ledger.json` and `segments/` into the run, then the new
/// `segments/` and `ledger.json` into `DIR`. The marker is removed, then `rewrite.new/`.
///
/// So the ledger is in transition exactly while `rewrite.new/` holds something, and every
/// command that opens the ledger first calls `finishInterrupted`: with a marked run it redoes
/// the moves not yet made (each is "move if the source is there and the target is not"),
/// without one it removes the unfinished build. A crash leaves the old ledger or the new one,
/// never a mix.
package enum LedgerSwap {
    package static let stagingDirectory = "rewrite.new"
    package static let unfinishedMarker = "REWRITING"
    static let movedOutMarker = "MOVED_OUT"

    /// Finishes (or undoes) a swap a crash interrupted, under the ledger's lock. Returns the
    /// quarantine run it finished, if any. Costs one `stat` when there is nothing to do.
    @discardableResult
    package static func finishInterrupted(directory: String, fileSystem: any FileSystem,
                                          derivedFiles: [String], useLock: Bool = true,
                                          lock request: LedgerLock.Request = .exclusive) throws -> String? {
        let staging = Path.join(directory, stagingDirectory)
        guard fileSystem.directoryExists(staging) else { return nil }
        let lock = useLock ? try fileSystem.lockDirectory(directory, request: request) : nil
        defer { lock?.release() }
        guard fileSystem.directoryExists(staging) else { return nil }
        let quarantine = Quarantine(ledgerDirectory: directory, fileSystem: fileSystem)
        guard let run = try quarantine.unfinishedRuns(marker: unfinishedMarker).last else {
            // (An empty build directory is what a finished swap may leave on a crash, too.)
            // Not committed: the old ledger is whole, and the build is only a derived copy.
            try removeStaging(staging, fileSystem: fileSystem)
            return nil
        }
        try moveFiles(directory: directory, run: run, fileSystem: fileSystem, derivedFiles: derivedFiles)
        return Path.join(Quarantine.directoryName, run)
    }

    /// Commits the ledger built in `stagingDirectory` and swaps it in; `note` is what the commit
    /// marker says until the swap is done. Returns the quarantine run (relative path).
    package static func commit(into directory: String, fileSystem: any FileSystem, clock: any WallClock,
                     derivedFiles: [String], note: String) throws -> String {
        let quarantine = Quarantine(ledgerDirectory: directory, fileSystem: fileSystem)
        let run = try quarantine.beginRun(at: clock.nowMilliseconds(), marker: unfinishedMarker, note: note)
        try moveFiles(directory: directory, run: run, fileSystem: fileSystem, derivedFiles: derivedFiles)
        return Path.join(Quarantine.directoryName, run)
    }

    /// The two phases of a swap, told apart by a second marker (`MOVED_OUT`, in the run) so that
    /// a redo never mistakes one file for another. A rename is durable only once both directories
    /// are synced; a crash between the two syncs may leave the file under both names (the crash
    /// model of RELIABILITY.md). Before `MOVED_OUT` exists, a name in `DIR` can only be the old
    /// file (the new ones move in later), so moving it out again replaces its twin in the run;
    /// after it, a name left in `rewrite.new/` can only be the twin of the new file in `DIR`.
    private static func moveFiles(directory: String, run: String, fileSystem: any FileSystem, derivedFiles: [String]) throws {
        let target = Path.join(Path.join(directory, Quarantine.directoryName), run)
        let staging = Path.join(directory, stagingDirectory)
        let movedOut = Path.join(target, movedOutMarker)
        func move(_ from: String, _ to: String) throws {
            guard fileSystem.fileExists(from) || fileSystem.directoryExists(from) else { return }
            try fileSystem.rename(from, to: to)
            try fileSystem.syncDirectory(Path.parent(of: to))
            try fileSystem.syncDirectory(Path.parent(of: from))
        }
        if !fileSystem.fileExists(movedOut) {
            for name in derivedFiles + [LedgerMetadata.fileName, Ledger.segmentsDirectory] {
                try move(Path.join(directory, name), Path.join(target, name))
            }
            try fileSystem.writeAtomically(movedOut, Array("the old ledger is in this run; the new one moves in next\n".utf8))
        }
        for name in [Ledger.segmentsDirectory, LedgerMetadata.fileName] {
            try move(Path.join(staging, name), Path.join(directory, name))
        }
        // The commit marker goes first: without it the run is finished, whatever else is left.
        try fileSystem.removeFileIfPresent(Path.join(target, unfinishedMarker))
        try fileSystem.syncDirectory(target)
        try fileSystem.removeFileIfPresent(movedOut)
        try fileSystem.syncDirectory(target)
        try removeStaging(staging, fileSystem: fileSystem)
    }

    /// Removes the build directory and what is left in it (nothing of the live ledger), through
    /// the file system seam to the last `rmdir`, so that a crash test reaches every step.
    package static func removeStaging(_ staging: String, fileSystem: any FileSystem) throws {
        guard fileSystem.directoryExists(staging) else { return }
        func empty(_ directory: String) throws {
            for name in try fileSystem.listDirectory(directory) {
                let path = Path.join(directory, name)
                if fileSystem.directoryExists(path) {
                    try empty(path)
                    try fileSystem.removeDirectory(path)
                } else {
                    try fileSystem.removeFile(path)
                }
            }
        }
        try empty(staging)
        try fileSystem.removeDirectory(staging)
        try fileSystem.syncDirectory(Path.parent(of: staging))
    }
}
