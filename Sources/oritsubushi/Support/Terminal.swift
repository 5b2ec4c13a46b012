#if canImport(Glibc)
import Glibc
#endif

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
        text.withUTF8 { write(fd: fd, UnsafeRawBufferPointer($0)) }
    }

    static func write(fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            done += n
        }
    }

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}
