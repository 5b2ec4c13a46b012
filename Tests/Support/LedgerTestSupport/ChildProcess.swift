import Foundation

/// Starting and awaiting a child process without holding a cooperative thread: its exit resumes
/// the caller through `Process.terminationHandler`, and a wait for its exit or for a line of its
/// log sleeps with `Task.sleep`. Swift's pool has as many threads as cores (2 here): one
/// `waitUntilExit` in an async test is half of it.
package enum ChildProcess {
    /// Runs `process` (configured, not started) to its exit, feeding `stdin` when given.
    package static func run(_ process: Process, stdin: String?) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try start(process, stdin: stdin)
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }

    /// Starts `process` with `stdin` as its input (none: /dev/null), written and closed at once.
    package static func start(_ process: Process, stdin: String?) throws {
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }
    }

    /// Waits for a started `process` to exit, polling every 20 ms with `Task.sleep`; false when it
    /// is still running after `timeout`.
    package static func exit(of process: Process, within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}

extension Sequence {
    /// `map` with an async transform, in order, one element at a time (each usually runs a child
    /// process, which `ChildProcess` awaits).
    package func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
