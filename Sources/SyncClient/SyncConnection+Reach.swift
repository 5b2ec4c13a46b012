import AsyncHTTPClient
#if canImport(Glibc)
import Glibc
#endif
import NIOCore

extension SyncConnection {
    /// Why a request did not get an answer, in a few words a person can act on ("connection
    /// refused", "the connection timed out"), instead of the HTTP library's nested error values.
    static func unreachableReason(_ error: any Error) -> String {
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout: return "the connection timed out"
            case .readTimeout, .deadlineExceeded: return "no answer in time"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: break
            }
        }
        if closedUnderRequest(error) { return "the server closed the connection" }
        if let io = ioError(in: error) { return String(cString: strerror(io.errnoCode)).lowercased() }
        let text = "\(error)"
        if text.contains("dnsAError") || text.contains("dnsAAAAError") { return "the host name cannot be resolved" }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// Whether the server closed the connection as the request went out. Which error says so
    /// depends on when the close is seen: before the request is written (`ioOnClosedChannel`,
    /// `outputClosed`), while it is written (EPIPE, ECONNRESET) or while the answer is awaited
    /// (`remoteConnectionClosed`, `eof`). A refused or timed-out connect is not among them.
    static func closedUnderRequest(_ error: any Error) -> Bool {
        if let client = error as? HTTPClientError { return client == .remoteConnectionClosed }
        if let channel = error as? ChannelError {
            switch channel {
            case .ioOnClosedChannel, .outputClosed, .eof, .alreadyClosed: return true
            default: return false
            }
        }
        if let io = error as? IOError { return io.errnoCode == EPIPE || io.errnoCode == ECONNRESET }
        return false
    }

    /// The system call failure inside an error (the connect that was refused), however deep the
    /// HTTP and NIO layers nest it.
    private static func ioError(in value: Any, depth: Int = 0) -> IOError? {
        if let io = value as? IOError { return io }
        guard depth < 8 else { return nil }
        for child in Mirror(reflecting: value).children {
            if let found = ioError(in: child.value, depth: depth + 1) { return found }
        }
        return nil
    }
}
