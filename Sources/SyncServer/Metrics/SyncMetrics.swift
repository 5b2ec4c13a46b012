import CoreMetrics
import Metrics
import Prometheus

/// The sync server's metrics (`GET /metrics`, Prometheus text format; docs/server.md "Metrics
/// and health checks"). Recorded through swift-metrics with a factory given here, never the process-global
/// one, so that several servers in one process (tests) keep separate counts; the CLI also
/// bootstraps `MetricsSystem` with `factory` once, so library metrics land in the same registry.
///
/// Series (every name prefixed `oritsubushi_`):
/// - `http_requests_total{route, method, status}`: every answer, by matched route (or
///   `unmatched`, so probes of random paths cannot grow the series without bound);
/// - `http_request_duration_seconds{route, method}`: a latency histogram;
/// - `events_pushed_total`, `events_pulled_total`: records (events and device names) accepted from and sent to clients (`MeteredStorage`);
/// - `refusals_total{reason}`: 4xx answers by reason (`unauthorized`, `forbidden`, `conflict`,
///   `fork`, `clock_bound`, `malformed`, `invalid`, …);
/// - `store_errors_total{status}`: 500 (a failure of the server) and 503 (a damaged user ledger);
/// - `store_outages_total`: 503s that retrying heals (the database cannot be reached, a user's
///   ledger is held by a repair), apart from damage, which needs the operator.
package final class SyncMetrics: Sendable {
    package let registry: PrometheusCollectorRegistry
    package let factory: PrometheusMetricsFactory
    private let pushed: CoreMetrics.Counter
    private let pulled: CoreMetrics.Counter

    package static let prefix = "oritsubushi_"

    package init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[Self.prefix + "http_request_duration_seconds"] = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
        ]
        self.factory = factory
        self.pushed = CoreMetrics.Counter(label: Self.prefix + "events_pushed_total", factory: factory)
        self.pulled = CoreMetrics.Counter(label: Self.prefix + "events_pulled_total", factory: factory)
    }

    /// One answered request: its route (a path pattern), method, status, duration and, for a
    /// refusal or a failure, its reason (`RefusalReason`).
    package func recordRequest(route: String, method: String, status: Int, nanoseconds: UInt64, reason: String?) {
        CoreMetrics.Counter(label: Self.prefix + "http_requests_total",
                dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory).increment()
        CoreMetrics.Timer(label: Self.prefix + "http_request_duration_seconds",
              dimensions: [("route", route), ("method", method)], factory: factory).recordNanoseconds(nanoseconds)
        if status == 503, reason == "outage" {
            CoreMetrics.Counter(label: Self.prefix + "store_outages_total", factory: factory).increment()
        } else if status >= 500 {
            CoreMetrics.Counter(label: Self.prefix + "store_errors_total", dimensions: [("status", String(status))], factory: factory).increment()
        } else if status >= 400, let reason {
            CoreMetrics.Counter(label: Self.prefix + "refusals_total", dimensions: [("reason", reason)], factory: factory).increment()
        }
    }

    package func recordPushed(_ events: Int) { if events > 0 { pushed.increment(by: events) } }
    package func recordPulled(_ events: Int) { if events > 0 { pulled.increment(by: events) } }

    /// The exposition, Prometheus text format 0.0.4.
    package func text() -> String { registry.emitToString() }
}
