import ArgumentParser
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// Runs a command body, printing any failure as one sentence on stderr and exiting with the
/// documented sysexits code.
enum CommandRunner {
    static func run(_ body: () throws -> Void) throws {
        do { try body() } catch { try handle(error) }
    }

    static func run(_ body: () async throws -> Void) async throws {
        do { try await body() } catch { try handle(error) }
    }

    /// ArgumentParser's own exits pass through; anything that is not a `LedgerError` is an I/O
    /// failure from Foundation or the system.
    private static func handle(_ error: any Error) throws -> Never {
        if let error = error as? ExitCode { throw error }
        fail(error as? LedgerError ?? LedgerError(.io, "\(error)"))
    }

    static func fail(_ error: LedgerError) -> Never {
        Terminal.error("error: \(error.description)")
        exit(error.exitCode)
    }
}

/// Output helpers: stdout is buffered by the C library; stderr lines are written whole.
enum Terminal {
    static func error(_ line: String) {
        var text = line
        if !text.hasSuffix("\n") { text += "\n" }
        write(fd: STDERR_FILENO, text)
    }

    /// Writes all of `text` to a file descriptor, retrying short writes and EINTR.
    static func write(fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                done += n
            }
        }
    }

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}
