import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A raster tile server of the test's own on 127.0.0.1 and a port the kernel picks, run
/// in-process, for the phone app's tiles (`serve --tiles`, Schemas/map.md "Raster tiles"): every
/// `/{z}/{x}/{y}.png` is the same 256×256 PNG of one colour (`colour`, a purple that neither the
/// base map nor a line or pin uses), sent with `Access-Control-Allow-Origin: *` as public tile
/// servers send it; any other path is 404. It counts the requests of each path.
final class LoopbackTileServer: Sendable {
    /// The tiles' red, green and blue.
    static let colour = [120, 80, 200]

    /// 256×256, 8-bit RGB, every pixel `colour` (569 bytes).
    static let png: [UInt8] = Array(Data(base64Encoded: """
        iVBORw0KGgoAAAANSUhEUgAAAQAAAAEACAIAAADTED8xAAACAElEQVR42u3TQQ0AAAjEsJOIHCQiizcaaFIFS5augbciAQYAA4ABwABgADAAGAAMAAYA\
        A4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABMIAKGAAMAAYA\
        A4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAMAAYAA4ABwABgADAAGAAM\
        AAbAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwA\
        BgADgAHAAGAAMAAGUAEDgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwABgADgAHAAGAAMAAYAAwA\
        BgADgAHAAGAAMAAYAAwABgADgAHAABgADAAGAAOAAcAAYAAwABgADAAGAAOAAcAAYAAwABgADAAGAAOAAcAAYAAwABgADAAGAAOAAcAAYAAwABgADAAG\
        AAOAAcAAYAAwABgADAAGAAOAAcAAYAAwAFwLxJgXcQYu/IwAAAAASUVORK5CYII=
        """)!)

    /// Requests per path, behind a lock: the server's threads add, the test reads.
    private final class Counts: @unchecked Sendable {
        private let lock = NSLock()
        private var byPath: [String: Int] = [:]
        private var stopped = false

        func add(_ path: String) { lock.withLock { byPath[path, default: 0] += 1 } }
        var snapshot: [String: Int] { lock.withLock { byPath } }
        /// True the first time only.
        func stop() -> Bool { lock.withLock { defer { stopped = true }; return !stopped } }
    }

    let port: Int
    private let counts: Counts
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    var origin: String { "http://127.0.0.1:\(port)" }
    /// What `serve --tiles` is given.
    var template: String { origin + "/{z}/{x}/{y}.png" }

    private init(port: Int, counts: Counts, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.counts = counts
        self.group = group
        self.task = task
    }

    static func start() async throws -> LoopbackTileServer {
        var logger = Logger(label: "loopback-tiles")
        logger.logLevel = .critical
        let counts = Counts()
        let router = Router()
        router.get("**") { request, _ -> Response in
            let path = request.uri.path
            counts.add(path)
            guard path.wholeMatch(of: /\/\d+\/\d+\/\d+\.png/) != nil else { return Response(status: .notFound) }
            var headers = HTTPFields()
            headers[.contentType] = "image/png"
            headers[.accessControlAllowOrigin] = "*"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: LoopbackTileServer.png)))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "loopback-tiles"),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            await group.triggerGracefulShutdown()
            throw WebDriver.Failure(description: "the loopback tile server did not start")
        }
        return LoopbackTileServer(port: port, counts: counts, group: group, task: task)
    }

    /// Requests so far, by path (`/5/28/12.png`).
    func requests() -> [String: Int] {
        counts.snapshot
    }

    /// Stops listening (graceful: requests in flight finish); later connections are refused.
    /// Stopping again does nothing.
    func stop() async {
        guard counts.stop() else { return }
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
