import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A request a client abandons: the headers and `bodyBytes` of the body go out on a fresh
/// loopback connection, which is then closed without reading the reply. With the whole body
/// sent the server may still apply it, and the client, not knowing, pushes the same records again.
enum CutRequest {
    /// Returns false if the connection could not even be made (the server is down).
    static func send(port: Int, path: String, token: String, body: [UInt8], bodyBytes: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return false }
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        let bytes = Array(head.utf8) + body.prefix(max(0, min(bodyBytes, body.count)))
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }
}
