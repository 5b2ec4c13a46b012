/// The mutating operations of a `CrashableFileSystem`, for crash points and fault injection.
package enum FileOperation: String, Sendable, CaseIterable {
    case createDirectory, createFile, write, sync, syncDirectory, rename, remove, truncate, link, removeDirectory
}

/// A failure the next matching operation of a `CrashableFileSystem` reports instead of
/// succeeding, as a `LedgerError` worded like the real file system's.
package struct InjectedFault: Sendable {
    package enum Code: Sendable {
        /// ENOSPC: the disk is full.
        case noSpace
        /// EIO: the device failed.
        case ioError
    }

    package var operation: FileOperation
    /// Which future occurrence of `operation` fails: 1 is the next one.
    package var occurrence: Int
    package var code: Code
    /// For a failing write: how many of its bytes reach the file before it fails (a short write).
    package var partialBytes: Int
    /// Whether the fault stays on for every later matching operation ("the disk stays full").
    package var sticky: Bool

    package init(_ operation: FileOperation, occurrence: Int = 1, code: Code = .noSpace,
                 partialBytes: Int = 0, sticky: Bool = false) {
        precondition(occurrence >= 1, "occurrence counts from 1")
        self.operation = operation
        self.occurrence = occurrence
        self.code = code
        self.partialBytes = partialBytes
        self.sticky = sticky
    }
}
