import Foundation

/// A child process's stdout and stderr in temporary files, not pipes, so that a grandchild that
/// inherits a descriptor (a lock holder, a server it starts) cannot block the read.
package final class OutputFiles {
    private let outFile: URL
    private let errFile: URL
    private let out: FileHandle
    private let err: FileHandle

    /// Two empty files named `prefix-UUID.out` and `.err` in the temporary directory.
    package init(prefix: String) throws {
        let temporary = FileManager.default.temporaryDirectory
        outFile = temporary.appendingPathComponent("\(prefix)-\(UUID().uuidString).out")
        errFile = temporary.appendingPathComponent("\(prefix)-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        out = try FileHandle(forWritingTo: outFile)
        err = try FileHandle(forWritingTo: errFile)
    }

    deinit {
        try? out.close()
        try? err.close()
        try? FileManager.default.removeItem(at: outFile)
        try? FileManager.default.removeItem(at: errFile)
    }

    /// Makes the files `process`'s stdout and stderr (before it runs).
    package func attach(to process: Process) {
        process.standardOutput = out
        process.standardError = err
    }

    /// What the child wrote, once it has exited.
    package var stdout: Data { (try? Data(contentsOf: outFile)) ?? Data() }
    package var stderr: Data { (try? Data(contentsOf: errFile)) ?? Data() }
}
