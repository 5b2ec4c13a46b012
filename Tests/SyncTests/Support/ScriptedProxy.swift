import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A raw-socket HTTP/1.1 relay on 127.0.0.1 in front of a real server, for what a server does to
/// a client's connection that no server of ours does on purpose: the first `closeAtOnce`
/// connections are closed before anything is read, and the first `losePushAnswers` pushes are
/// applied by the server but their answers never sent; everything else is relayed. One request
/// per connection, each answer saying `Connection: close`; it runs on a thread of its own, never on the cooperative pool, and stops
/// after `lifetime`.
final class ScriptedProxy: @unchecked Sendable {
    private enum Move: Sendable {
        /// Closes the connection before reading anything.
        case closeAtOnce
        /// Relays the request and reads the server's whole answer (it is applied), then closes
        /// without sending it: the answer is lost.
        case applyThenClose
        /// Relays the request and the answer, then closes.
        case relay
    }

    let port: Int
    private let listener: Int32
    private let target: Int
    private let lock = NSLock()
    private var closeAtOnce: Int
    private var losePushAnswers: Int
    private var seen: [String] = []

    init(target: Int, closeAtOnce: Int = 0, losePushAnswers: Int = 0, lifetime: TimeInterval = 60) throws {
        self.target = target
        self.closeAtOnce = closeAtOnce
        self.losePushAnswers = losePushAnswers
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { Glibc.close(fd); throw RawConnection.Failure(description: "the proxy cannot listen") }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        var wait = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(lifetime)
        Thread { [self] in
            while Date() < deadline {
                let client = accept(listener, nil, nil)
                if client >= 0 { serve(client) }
            }
            Glibc.close(listener)
        }.start()
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// The request lines seen, with the move each got (`POST /v1/push -> applyThenClose`).
    var log: [String] { lock.withLock { seen } }

    private func serve(_ client: Int32) {
        defer { Glibc.close(client) }
        let closing: Bool = lock.withLock {
            defer { closeAtOnce -= 1 }
            return closeAtOnce > 0
        }
        guard closing else {
            guard let request = Self.readMessage(client) else { return }
            let line = String(decoding: request.prefix(while: { $0 != 13 }), as: UTF8.self)
            let move: Move = lock.withLock {
                guard line.hasPrefix("POST /v1/push "), losePushAnswers > 0 else { return .relay }
                losePushAnswers -= 1
                return .applyThenClose
            }
            lock.withLock { seen.append("\(line) -> \(move)") }
            guard let answer = relay(request) else { return }
            if case .relay = move { Self.send(client, Self.closingConnection(answer)) }
            return
        }
        lock.withLock { seen.append("(closed at once)") }
    }

    /// The request sent to the target and its whole answer.
    private func relay(_ request: [UInt8]) -> [UInt8]? {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(upstream) }
        var address = Self.loopback(port: target)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return nil }
        Self.send(upstream, request)
        return Self.readMessage(upstream)
    }

    /// One HTTP message: the head, then `Content-Length` bytes of body (timeouts end it: nil).
    private static func readMessage(_ fd: Int32) -> [UInt8]? {
        var wait = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var needed: Int?
        while needed.map({ bytes.count < $0 }) ?? true {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return nil }
            bytes += buffer[0..<n]
            if needed == nil, let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                needed = end.upperBound + length
            }
        }
        return bytes
    }

    /// The answer saying `Connection: close`, as a server that closes after one request must, so
    /// that the client opens a new connection for its next request instead of meeting this one
    /// closed (which would be a retry the script did not ask for).
    private static func closingConnection(_ answer: [UInt8]) -> [UInt8] {
        guard let end = answer.firstRange(of: Array("\r\n\r\n".utf8)) else { return answer }
        let lines = String(decoding: answer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let head = lines.filter { !$0.lowercased().hasPrefix("connection:") } + ["Connection: close"]
        return Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + answer[end.upperBound...]
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            sent += n
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
