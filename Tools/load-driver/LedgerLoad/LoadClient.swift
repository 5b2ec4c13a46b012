import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import NIOCore
import SyncClient

/// One device: a real ledger in its own directory, appending local events in rounds and
/// syncing each round (pull, then push what the server lacks), retrying with backoff while the
/// server is down or a request fails. Used by one task at a time.
final class LoadClient: @unchecked Sendable {
    let index: Int
    let user: Int
    let ledger: Ledger
    /// One connection per instance (port); every request takes the next one, so a client's pull
    /// pages and push land on different instances, as a load balancer may send them.
    private let connections: [(connection: SyncConnection, port: Int)]
    private var turn: Int
    private let configuration: LoadConfiguration
    private var random: SeededGenerator
    private(set) var statistics = ClientStatistics()
    /// `have_digests` (merge.md §10): the digest of this ledger's newest event of each device,
    /// kept up to date from what is appended (as `SyncSession` does), never by rereading.
    private var digests: [DeviceID: String] = [:]

    init(index: Int, user: Int, directory: String, token: String, ports: [Int], httpClient: HTTPClient,
         configuration: LoadConfiguration) throws {
        self.index = index
        self.user = user
        self.configuration = configuration
        ledger = try Ledger.create(directory: directory, deviceName: "load-client-\(index)")
        connections = try ports.map { port in
            var connection = try SyncConnection(server: "http://127.0.0.1:\(port)", token: token)
            connection.httpClient = httpClient
            connection.timeout = .seconds(30)
            return (connection, port)
        }
        turn = index
        random = SeededGenerator(seed: configuration.seed &* 0x1_0000_0001 &+ UInt64(index))
    }

    /// The instance for the next request.
    private func next() -> (connection: SyncConnection, port: Int) {
        defer { turn += 1 }
        return connections[turn % connections.count]
    }

    /// Appends and syncs every round, then reports to `progress` as pushes are acknowledged.
    func run(progress: LoadProgress) async {
        var appended = 0
        do {
            while appended < configuration.eventsPerClient {
                let count = min(configuration.batch, configuration.eventsPerClient - appended)
                if let last = try ledger.appendLocal((0..<count).map { _ in randomEdit() }).last {
                    digests[last.id.device] = EventDigest.hex(.stationEdit(last))
                }
                appended += count
                try await sync(progress: progress, cutting: true)
            }
        } catch {
            statistics.failures.append("client \(index): \(error)")
        }
    }

    /// One pull-and-push until it succeeds; retried with exponential backoff and jitter.
    /// Returns whether it pushed events.
    @discardableResult
    func sync(progress: LoadProgress?, cutting: Bool) async throws -> Bool {
        let start = ContinuousClock.now
        var attempt = 0
        while true {
            do {
                return try await syncOnce(progress: progress, cutting: cutting)
            } catch let error as LedgerError where error.category == .unavailable {
                guard ContinuousClock.now - start < configuration.retryLimit else {
                    throw LoadError.server("gave up after retrying for \(configuration.retryLimit): \(error.message)")
                }
                attempt += 1
                statistics.retries += 1
                let ceiling = min(1_000, 10 << min(attempt, 7))
                try await Task.sleep(for: .milliseconds(Int.random(in: ceiling / 2...ceiling, using: &random)))
            }
        }
    }

    private func syncOnce(progress: LoadProgress?, cutting: Bool) async throws -> Bool {
        var options = MergeOptions()
        options.countsConflicts = false
        options.writesKnowledgeMarks = false
        var cursor: UInt64?
        var serverHas: [DeviceID: UInt64] = [:]
        while true {
            let started = ContinuousClock.now
            let held = ledger.versionVector
            let page = try await next().connection.pull(PullRequest(
                have: WireVersionVector.encode(held), cursor: cursor, limit: 2_000,
                haveDigests: Dictionary(uniqueKeysWithValues: digests.map { ($0.key.description, $0.value) })))
            statistics.pullMilliseconds.append(Self.milliseconds(since: started))
            let prepared = try LedgerMerger.prepare(try page.records.map { try $0.record() }, for: ledger, options: options)
            try LedgerMerger.apply(prepared, to: ledger, options: options)
            for record in prepared.events {
                // Sorted by (device, seq): the last of a device's run is its newest.
                if let id = record.eventID, id.seq == ledger.versionVector[id.device] { digests[id.device] = EventDigest.hex(record) }
            }
            serverHas = try WireVersionVector.decode(page.serverHas)
            statistics.confirmedSeq = max(statistics.confirmedSeq, serverHas[ledger.localDevice] ?? 0)
            cursor = page.cursor
            if !page.more { break }
        }
        let marked = try LedgerMerger.appendKnowledgeMarkIfOwed(ledger)

        var outgoing: [LedgerRecord] = []
        let local = ledger.localDevice, localSeq = ledger.versionVector[local] ?? 0
        try ledger.forEachRecord { view, _ in
            if view.kind == .deviceName || view.seq > serverHas[view.device] ?? 0 { outgoing.append(view.record) }
            // A knowledge mark just appended is this device's newest event.
            if marked, view.hasEventID, view.device == local, view.seq == localSeq { digests[local] = EventDigest.hex(view) }
        }
        let events = outgoing.filter { $0.eventID != nil }
        guard !events.isEmpty else { return false }
        let request = PushRequest(records: outgoing.map(WireRecord.init))
        if cutting && Double.random(in: 0..<1, using: &random) < configuration.disconnectRate {
            let body = Array(try JSONEncoder().encode(request))
            // Half of the cuts send the whole body (the server may apply it), half stop inside it.
            // With several instances the cut copy and the real push go to different ones at once.
            let bytes = Bool.random(using: &random) ? body.count : Int.random(in: 0..<body.count, using: &random)
            let (connection, port) = next()
            if CutRequest.send(port: port, path: "/v1/push", token: connection.token, body: body, bodyBytes: bytes) {
                statistics.disconnects += 1
            }
        }
        let started = ContinuousClock.now
        let (connection, port) = next()
        let push = await progress?.pushSent(port: port)
        let reply: PushResponse
        do {
            reply = try await connection.push(request)
        } catch {
            if let push { await progress?.pushEnded(push, answered: !Self.unanswered(error)) }
            throw error
        }
        if let push { await progress?.pushEnded(push, answered: true) }
        statistics.pushMilliseconds.append(Self.milliseconds(since: started))
        statistics.duplicatesReported += reply.duplicates
        for record in events {
            statistics.acknowledged[record.eventID!] = RecordFingerprint.of(record)
        }
        await progress?.acknowledged(events.count, device: ledger.localDevice, user: user)
        return true
    }

    /// A station edit on one of 400 stations (so that devices of one user edit the same
    /// stations and last-writer-wins has work to do), with a date and sometimes a memo.
    private func randomEdit() -> StationEditDraft {
        let station = UInt32.random(in: 1...400, using: &random)
        let date: CompletionDate = switch Int.random(in: 0..<4, using: &random) {
        case 0: .unknown
        case 1: .year(Int.random(in: 1960...2025, using: &random))
        case 2: .month(Int.random(in: 1960...2025, using: &random), Int.random(in: 1...12, using: &random))
        default: .day(Int.random(in: 1960...2025, using: &random), Int.random(in: 1...12, using: &random), Int.random(in: 1...28, using: &random))
        }
        let memo = Bool.random(using: &random) ? "client \(index) visit \(Int.random(in: 0..<1_000_000, using: &random))" : nil
        return StationEditDraft(station: station, compDate: date, memo: memo)
    }

    /// Adds this device's events the server reported holding (in a pull's `server_has`) but
    /// that no push reply covered: pushed by a request whose reply was lost.
    func addConfirmedEvents() throws {
        try ledger.forEachRecord { view, _ in
            guard view.hasEventID, view.device == ledger.localDevice, view.seq <= statistics.confirmedSeq,
                  statistics.acknowledged[view.eventID] == nil else { return }
            statistics.acknowledged[view.eventID] = RecordFingerprint.of(view)
            statistics.confirmedByPull += 1
        }
    }

    /// Whether a request failed without an HTTP answer: `SyncConnection.exchange` says "cannot
    /// reach" only when the connection failed before a response came.
    static func unanswered(_ error: any Error) -> Bool {
        (error as? LedgerError).map { $0.category == .unavailable && $0.message.hasPrefix("cannot reach ") } ?? false
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
