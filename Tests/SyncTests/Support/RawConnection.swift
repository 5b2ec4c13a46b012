import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A bare TCP connection to 127.0.0.1, for requests no HTTP client would send.
final class RawConnection {
    struct Failure: Error, CustomStringConvertible { let description: String }
    private var fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawConnection.Failure(description: "cannot connect to port \(port)") }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw RawConnection.Failure(description: "send failed") }
    }

    /// Reads (and drops) what the server sends until it closes the connection; false when it is
    /// still open after `seconds`.
    func waitForClose(seconds: Double) -> Bool {
        readUntilClose(seconds: seconds).closed
    }

    /// What the server sends until it closes the connection or `seconds` pass.
    func readUntilClose(seconds: Double) -> (closed: Bool, text: String) {
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { received += buffer[0..<n]; continue }
            if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { return (true, String(decoding: received, as: UTF8.self)) }
        }
        return (false, String(decoding: received, as: UTF8.self))
    }

    /// The same, awaited: reads without blocking and sleeps 20 ms (`Task.sleep`) between looks,
    /// so that an async test holds no cooperative thread while the server takes its time.
    func waitForClose(seconds: Double) async -> Bool {
        await readUntilClose(seconds: seconds).closed
    }

    func readUntilClose(seconds: Double) async -> (closed: Bool, text: String) {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { received += buffer[0..<n]; continue }
            if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { return (true, String(decoding: received, as: UTF8.self)) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return (false, String(decoding: received, as: UTF8.self))
    }

    /// Whether the server has closed the connection, looking once without waiting (what
    /// arrived is dropped).
    func isClosed() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { continue }
            return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }

    /// Sends without waiting; false once the server has closed the connection.
    func trySend(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) == bytes.count
    }

    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { close() }
}
