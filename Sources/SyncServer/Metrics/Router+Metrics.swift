import Hummingbird

extension Router {
    /// Counts every request into `metrics`; with `servesRoute`, also answers `GET /metrics` here
    /// (unauthenticated; `serve --metrics-port` serves it on a loopback listener instead).
    /// Call before any other middleware so failures are counted as the client sees them.
    package func addMetrics(_ metrics: SyncMetrics, servesRoute: Bool) {
        add(middleware: MetricsMiddleware(metrics: metrics))
        if servesRoute { MetricsEndpoint.addRoute(to: self, metrics) }
    }
}
