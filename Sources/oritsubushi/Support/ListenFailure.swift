#if canImport(Glibc)
import Glibc
#endif
import LedgerCore
import NIOCore

/// Why `serve` could not listen or stopped, as one sentence (exit 69): a port another program
/// holds is named ("port 8080 is already in use"), not NIO's bind error.
enum ListenFailure {
    static func describe(_ error: any Error, host: String, port: Int, metricsPort: Int?) -> LedgerError {
        guard let io = error as? IOError else { return LedgerError(.unavailable, "the server stopped: \(error)") }
        switch io.errnoCode {
        case EADDRINUSE:
            // Two ports may be asked for; the one that cannot be bound is the one in use.
            let busy = metricsPort.map { canBind(host: host, port: port) ? $0 : port } ?? port
            return LedgerError(.unavailable, "port \(busy) is already in use", cause: .errno(io.errnoCode))
        case EACCES:
            return LedgerError(.unavailable, "port \(port) needs privileges this user lacks (ports below 1024 do)", cause: .errno(io.errnoCode))
        case EADDRNOTAVAIL:
            return LedgerError(.unavailable, "\(host) is not an address of this machine", cause: .errno(io.errnoCode))
        default:
            return LedgerError(.unavailable, "cannot listen on \(host):\(port): \(String(cString: strerror(io.errnoCode)).lowercased())",
                               cause: .errno(io.errnoCode))
        }
    }

    /// Whether a TCP socket can be bound to `host:port` now (IPv4 literal hosts; others count as bindable).
    private static func canBind(host: String, port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else { return true }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
