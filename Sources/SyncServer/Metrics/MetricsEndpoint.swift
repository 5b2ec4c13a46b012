import Hummingbird
import Logging
import NIOCore

/// `GET /metrics`: on the main port (the default), or alone on a loopback listener
/// (`serve --metrics-port N`), which keeps it off the public address.
package enum MetricsEndpoint {
    static func addRoute<Context: RequestContext>(to router: Router<Context>, _ metrics: SyncMetrics) {
        router.get("/metrics") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: metrics.text())))
        }
    }

    /// The listener for `--metrics-port`, bound to 127.0.0.1 only. `onRunning` gets the bound port.
    package static func makeApplication(
        metrics: SyncMetrics, port: Int, logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        addRoute(to: router, metrics)
        return Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "oritsubushi-metrics"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
