#if canImport(Glibc)
import Glibc
#endif

extension Ledger {
    /// Refuses, before anything is appended, a ledger whose files this process cannot write
    /// (exit 74): the directory (the projection's journal and temporaries go there), `segments/`
    /// (new segments, checkpoints), the newest segment and the projection file. Without this,
    /// `chmod a-w DIR` let an edit append its event and then fail on the projection: a command
    /// that reported failure had written. Paths outside the real disk are not checked (an
    /// in-memory or fault-simulating file system reports its own refusals).
    package func requireWritable(projectionFile: String) throws {
        for directory in [self.directory, segmentsPath] where !isWritable(directory) {
            throw LedgerLock.readOnlyError(self.directory)
        }
        if let newest = segments.last, !newest.sealed, !isWritable(newest.path) {
            throw LedgerError(.io, "the segment \(newest.path) is read-only; nothing was changed", cause: .errno(EACCES))
        }
        let projection = Path.join(directory, projectionFile)
        if fileSystem.fileExists(projection), !isWritable(projection) {
            throw LedgerError(.io, "the ledger directory's projection \(projection) is read-only; nothing was changed", cause: .errno(EACCES))
        }
    }

    func isWritable(_ path: String) -> Bool {
        guard let native = fileSystem.nativePath(path) else { return true }
        return access(native, W_OK) == 0 || errno == ENOENT
    }
}
