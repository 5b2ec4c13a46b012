import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerSync
import NIOCore
import NIOHTTP1

/// Unauthorized requests sent throughout a run, each of which must be refused: no token, a
/// wrong token, a revoked token (401), and a valid token pushing an event of another user's
/// device (403).
struct IntruderProbe {
    enum Kind: String, CaseIterable, Sendable {
        case noToken = "no token"
        case wrongToken = "wrong token"
        case revokedToken = "revoked token"
        case foreignDevice = "another user's device id"

        var expectedStatus: UInt {
            self == .foreignDevice ? 403 : 401
        }
    }

    struct Tally: Sendable {
        /// Requests the server answered, per kind, and how many of them it refused as it must.
        var answered: [Kind: Int] = [:]
        var refused: [Kind: Int] = [:]
        /// Requests that got no answer (the server was down for its restart).
        var unanswered = 0
        var breaches: [String] = []

        mutating func add(_ other: Tally) {
            answered.merge(other.answered, uniquingKeysWith: +)
            refused.merge(other.refused, uniquingKeysWith: +)
            unanswered += other.unanswered
            breaches += other.breaches
        }

        var totalAnswered: Int { answered.values.reduce(0, +) }
        var totalRefused: Int { refused.values.reduce(0, +) }
    }

    /// Every instance; a lane sends each kind to each instance in turn.
    let urls: [String]
    let httpClient: HTTPClient
    /// One valid token per user (index).
    let tokens: [String]
    let revokedToken: String
    let interval: Duration

    /// Probes with `concurrency` requests in flight until the clients are done.
    func run(progress: LoadProgress, concurrency: Int) async -> Tally {
        await withTaskGroup(of: Tally.self) { group in
            for lane in 0..<concurrency { group.addTask { await probe(progress: progress, firstStep: lane) } }
            var total = Tally()
            for await tally in group { total.add(tally) }
            return total
        }
    }

    /// One lane: cycles through the kinds and endpoints.
    private func probe(progress: LoadProgress, firstStep: Int) async -> Tally {
        var tally = Tally()
        var step = firstStep
        while await !progress.finished {
            let kind = Kind.allCases[step % Kind.allCases.count]
            step += 1
            guard let request = await makeRequest(kind, step: step, progress: progress) else { continue }
            do {
                let response = try await httpClient.execute(request, timeout: .seconds(10))
                _ = try await response.body.collect(upTo: 1 << 20)
                tally.answered[kind, default: 0] += 1
                if response.status.code == kind.expectedStatus {
                    tally.refused[kind, default: 0] += 1
                } else {
                    tally.breaches.append("\(kind.rawValue) \(request.url): HTTP \(response.status.code), expected \(kind.expectedStatus)")
                }
            } catch {
                tally.unanswered += 1
            }
            try? await Task.sleep(for: interval)
        }
        return tally
    }

    private func makeRequest(_ kind: Kind, step: Int, progress: LoadProgress) async -> HTTPClientRequest? {
        let paths = ["/v1/pull", "/v1/push", "/v1/status"]
        var path = paths[step % paths.count]
        var body: [UInt8]?
        var token: String?
        switch kind {
        case .noToken: token = nil
        case .wrongToken: token = "ots_" + String(repeating: "0", count: 63) + String(step % 10)
        case .revokedToken: token = revokedToken
        case .foreignDevice:
            // User X's token with an event of a device the server knows belongs to user Y.
            let known = await progress.knownDevices
            guard tokens.count > 1,
                  let (device, owner) = known.sorted(by: { $0.key < $1.key }).dropFirst(step % max(1, known.count)).first
            else { return nil }
            token = tokens[(owner + 1 + step % (tokens.count - 1)) % tokens.count]
            path = "/v1/push"
            let edit = StationEdit(id: EventID(device: device, seq: 1_000_000 + UInt64(step)),
                                   hlc: HybridTimestamp.next(after: .zero, wallClock: Int64(Date().timeIntervalSince1970 * 1_000)),
                                   station: 1, compDate: .unknown, memo: "intruder", origin: .user)
            body = Array((try? JSONEncoder().encode(PushRequest(records: [WireRecord(.stationEdit(edit))]))) ?? Data())
        }
        if path == "/v1/pull", body == nil { body = Array(#"{"have":{},"have_digests":{}}"#.utf8) }
        if path == "/v1/push", body == nil { body = Array(#"{"records":[]}"#.utf8) }
        var request = HTTPClientRequest(url: urls[(step / Kind.allCases.count) % urls.count] + path)
        request.method = path == "/v1/status" ? .GET : .POST
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        return request
    }
}
