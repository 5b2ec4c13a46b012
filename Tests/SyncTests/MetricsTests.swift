import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import NIOHTTP1
import SyncServer
import Testing

/// `GET /metrics` (Prometheus text format): the counters move with real traffic through a real
/// `oritsubushi serve`, and `--metrics-port` moves the endpoint to a loopback listener of its own.
@Suite("Metrics")
struct MetricsTests {
    /// The value of one series (its full name with labels, as exposed), 0 when absent.
    static func value(_ text: String, _ series: String) -> Double {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1)) ?? .nan
        }
        return 0
    }

    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), String(buffer: body))
    }

    @Test("each SyncMetrics has its own registry: no process-global state between servers")
    func separateRegistries() {
        let a = SyncMetrics(), b = SyncMetrics()
        a.recordRequest(route: "/v1/push", method: "POST", status: 200, nanoseconds: 2_000_000, reason: nil)
        a.recordRequest(route: "/v1/pull", method: "POST", status: 401, nanoseconds: 1_000, reason: "unauthorized")
        a.recordRequest(route: "/v1/pull", method: "POST", status: 503, nanoseconds: 1_000, reason: "damage")
        a.recordRequest(route: "/v1/pull", method: "POST", status: 503, nanoseconds: 1_000, reason: "outage")
        a.recordRequest(route: "/v1/pull", method: "POST", status: 503, nanoseconds: 1_000, reason: "outage")
        a.recordPushed(7)
        let text = a.text()
        #expect(Self.value(text, #"oritsubushi_http_requests_total{route="/v1/push",method="POST",status="200"}"#) == 1)
        #expect(Self.value(text, #"oritsubushi_http_request_duration_seconds_count{route="/v1/push",method="POST"}"#) == 1)
        #expect(Self.value(text, #"oritsubushi_http_request_duration_seconds_bucket{route="/v1/push",method="POST",le="0.005"}"#) == 1)
        #expect(Self.value(text, #"oritsubushi_http_request_duration_seconds_bucket{route="/v1/push",method="POST",le="0.001"}"#) == 0)
        #expect(Self.value(text, #"oritsubushi_refusals_total{reason="unauthorized"}"#) == 1)
        #expect(Self.value(text, #"oritsubushi_store_errors_total{status="503"}"#) == 1, "damage alone")
        #expect(Self.value(text, "oritsubushi_store_outages_total") == 2, "outages apart from damage")
        #expect(Self.value(text, "oritsubushi_events_pushed_total") == 7)
        #expect(!b.text().contains("oritsubushi_http_requests_total{"))
    }

    @Test("/metrics on the main port: requests by route and status, events pushed and pulled, refusals")
    func countersMoveWithTraffic() async throws {
        let dir = try TemporaryDirectory("metrics-main")
        defer { dir.remove() }
        let data = dir.sub("server")
        let token = try ServerOpsTests.token(try await CLI.run("server", "add-user", "carol", "--data", data))
        let server = try await ServerProcess(data: data)
        defer { server.terminate() }
        let url = "http://127.0.0.1:\(server.port)"
        let before = try await Self.get(url + "/metrics")
        #expect(before.status == 200)
        let pushRoute = #"oritsubushi_http_requests_total{route="/v1/push",method="POST",status="200"}"#
        #expect(Self.value(before.body, pushRoute) == 0)

        let phone = dir.sub("phone"), laptop = dir.sub("laptop")
        try await ServerOpsTests.client(phone, device: "phone", stations: [202919, 120004], url: url, token: token)
        try await CLI.run("init", "--ledger", laptop, "--device", "laptop", "--no-catalog").expectSuccess()
        try await ServerOpsTests.sync(laptop, url: url, token: token).expectSuccess()
        await #expect(try ServerOpsTests.sync(laptop, url: url, token: "ots_wrong").status == 77)

        let after = try await Self.get(url + "/metrics").body
        #expect(Self.value(after, pushRoute) >= 2)
        #expect(Self.value(after, #"oritsubushi_http_request_duration_seconds_count{route="/v1/pull",method="POST"}"#) >= 3)
        // Two completions, plus the phone's device name, pushed; the laptop pulled them all.
        #expect(Self.value(after, "oritsubushi_events_pushed_total") >= 2)
        #expect(Self.value(after, "oritsubushi_events_pulled_total") >= 2)
        #expect(Self.value(after, #"oritsubushi_refusals_total{reason="unauthorized"}"#) >= 1)
        #expect(Self.value(after, #"oritsubushi_http_requests_total{route="unmatched",method="GET",status="404"}"#) == 0)
        _ = try await Self.get(url + "/no/such/path")
        let probed = try await Self.get(url + "/metrics").body
        #expect(Self.value(probed, #"oritsubushi_http_requests_total{route="unmatched",method="GET",status="404"}"#) == 1)
        await #expect(server.stop() == 0)
    }

    @Test("serve --metrics-port: /metrics only on a 127.0.0.1 listener of its own")
    func separateMetricsPort() async throws {
        let dir = try TemporaryDirectory("metrics-port")
        defer { dir.remove() }
        let server = try await ServerProcess(data: dir.sub("server"), command: ["server", "serve", "--metrics-port", "0"])
        defer { server.terminate() }
        var metricsPort: Int?
        for _ in 0..<200 where metricsPort == nil {
            metricsPort = server.log.firstMatch(of: /address=127\.0\.0\.1:(\d+)[^\n]*metrics listening/).flatMap { Int($0.1) }
            if metricsPort == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let port = try #require(metricsPort, "\(server.log)")
        #expect(try await Self.get("http://127.0.0.1:\(server.port)/metrics").status == 404, "not on the main port")
        _ = try await Self.get("http://127.0.0.1:\(server.port)/v1/health")
        let metrics = try await Self.get("http://127.0.0.1:\(port)/metrics")
        #expect(metrics.status == 200)
        #expect(Self.value(metrics.body, #"oritsubushi_http_requests_total{route="/v1/health",method="GET",status="200"}"#) == 1)
        await #expect(server.stop() == 0)
    }
}
