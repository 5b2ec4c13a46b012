import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerSync
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Drives the real server (`oritsubushi serve`, a child process on loopback) with concurrent
/// clients, cut requests, one restart and unauthorized probes, then checks that nothing
/// acknowledged was lost or duplicated and that every device converged (RELIABILITY.md,
/// "Server under load and faults").
package enum LoadDriver {
    /// Runs once. Throws only when the run cannot be carried out; failed checks are in the report.
    package static func run(_ configuration: LoadConfiguration, log: @escaping @Sendable (String) -> Void = { _ in }) async throws -> LoadReport {
        try configuration.validate()
        let work = configuration.workDirectory
            ?? FileManager.default.temporaryDirectory.path + "/oritsubushi-load-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: work + "/clients", withIntermediateDirectories: true)
        defer { if configuration.workDirectory == nil { try? FileManager.default.removeItem(atPath: work) } }

        var httpConfiguration = HTTPClient.Configuration()
        httpConfiguration.timeout = .init(connect: .seconds(5), read: .seconds(30))
        httpConfiguration.connectionPool.retryConnectionEstablishment = false
        // One connection per client and a few for the probes: requests do not queue in the pool.
        httpConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = configuration.clients + 4
        let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: httpConfiguration)
        let server = try LoadServer(executable: configuration.executable, dataDirectory: work + "/server",
                                       logPath: work + "/server.log")
        do {
            let report = try await drive(configuration, work: work, server: server, httpClient: httpClient, log: log)
            try await httpClient.shutdown()
            return report
        } catch {
            await server.stop(signal: SIGKILL)
            try? await httpClient.shutdown()
            throw error as? LoadError ?? LoadError.server("the run stopped: \(error)")
        }
    }

    private static func drive(_ configuration: LoadConfiguration, work: String, server: LoadServer,
                              httpClient: HTTPClient, log: @escaping @Sendable (String) -> Void) async throws -> LoadReport {
        let userNames = (0..<configuration.userCount).map { "load-user-\($0)" }
        let tokens = try userNames.map { try server.addUser($0) }
        let revokedToken = try server.addUser("load-revoked")
        try await server.start()
        log("server on \(server.url), data \(server.dataDirectory)")
        try server.revokeTokens(of: "load-revoked")

        let clients = try (0..<configuration.clients).map { index in
            try LoadClient(index: index, user: index % userNames.count, directory: work + "/clients/c\(index)",
                           token: tokens[index % userNames.count], port: server.port, httpClient: httpClient,
                           configuration: configuration)
        }
        defer { clients.forEach { $0.ledger.close() } }

        // The main phase: clients, the intruder and the restart trigger at once.
        let progress = LoadProgress()
        let probe = IntruderProbe(url: server.url, httpClient: httpClient, tokens: tokens,
                                  revokedToken: revokedToken, interval: configuration.probeInterval)
        let probing = Task { await probe.run(progress: progress, concurrency: 4) }
        let restarting = Task { try await restartOnce(server, configuration, progress, httpClient, log) }
        let started = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run(progress: progress) } }
        }
        let duration = ContinuousClock.now - started
        await progress.finish()
        let restarts = try await restarting.value
        let tally = await probing.value
        log("main phase done in \(duration); final sync")

        // Final rounds until quiet: every device pulls what the others pushed last (a pull can
        // owe a knowledge mark, itself an event to push, hence more than one round).
        var statistics = ClientStatistics()
        var finalRounds = 0
        var pushed = true
        while pushed && finalRounds < 4 {
            pushed = false
            finalRounds += 1
            for client in clients {
                do { pushed = try await client.sync(progress: nil, cutting: false) || pushed } catch {
                    statistics.failures.append("client \(client.index), final sync: \(error)")
                }
            }
        }
        for client in clients {
            try client.addConfirmedEvents()
            statistics.add(client.statistics)
        }
        let stopStatus = await server.stop(signal: SIGTERM)

        var report = LoadReport()
        report.clients = configuration.clients
        report.users = userNames.count
        report.eventsPerClient = configuration.eventsPerClient
        report.batch = configuration.batch
        report.seed = configuration.seed
        report.durationSeconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        report.pushes = statistics.pushMilliseconds.count
        report.pulls = statistics.pullMilliseconds.count
        let pushes = statistics.pushMilliseconds.sorted(), pulls = statistics.pullMilliseconds.sorted()
        report.pushP50Milliseconds = LoadReport.percentile(pushes, 0.5)
        report.pushP99Milliseconds = LoadReport.percentile(pushes, 0.99)
        report.pullP50Milliseconds = LoadReport.percentile(pulls, 0.5)
        report.pullP99Milliseconds = LoadReport.percentile(pulls, 0.99)
        report.disconnectsInjected = statistics.disconnects
        report.duplicatesReported = statistics.duplicatesReported
        report.confirmedByPull = statistics.confirmedByPull
        report.finalRounds = finalRounds
        report.restarts = restarts
        report.restartSignal = configuration.restartWithKill ? "SIGKILL" : "SIGTERM"
        report.retries = statistics.retries
        report.unauthorizedSent = tally.totalAnswered
        report.unauthorizedRefused = tally.totalRefused
        report.unauthorizedUnanswered = tally.unanswered
        for kind in IntruderProbe.Kind.allCases {
            report.unauthorizedByKind[kind.rawValue] = [tally.answered[kind] ?? 0, tally.refused[kind] ?? 0]
        }

        try verify(&report, clients: clients, statistics: statistics, tally: tally, userNames: userNames,
                   dataDirectory: server.dataDirectory, stopStatus: stopStatus, configuration: configuration)
        return report
    }

    /// Restarts the server once, after the configured time or half of all events, while the
    /// clients keep going; returns how many restarts happened (0 if the clients finished first).
    private static func restartOnce(_ server: LoadServer, _ configuration: LoadConfiguration, _ progress: LoadProgress,
                                    _ httpClient: HTTPClient, _ log: @escaping @Sendable (String) -> Void) async throws -> Int {
        let started = ContinuousClock.now
        while await !progress.finished {
            let due: Bool
            if let seconds = configuration.restartAfterSeconds {
                due = ContinuousClock.now - started >= .milliseconds(Int(seconds * 1_000))
            } else {
                due = await progress.acknowledgedEvents >= configuration.totalEvents / 2
            }
            if due {
                let acknowledged = await progress.acknowledgedEvents
                await server.stop(signal: configuration.restartWithKill ? SIGKILL : SIGTERM)
                log("server stopped (\(configuration.restartWithKill ? "SIGKILL" : "SIGTERM")) after \(acknowledged) acknowledged events; restarting")
                try await server.start()
                return 1
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return 0
    }

    private struct ServerLedger {
        var events: [EventID: UInt64] = [:]
        var duplicates = 0
        var projection: [UInt32: CompletionRegister] = [:]
    }

    private static func verify(_ report: inout LoadReport, clients: [LoadClient], statistics: ClientStatistics,
                               tally: IntruderProbe.Tally, userNames: [String], dataDirectory: String,
                               stopStatus: Int32, configuration: LoadConfiguration) throws {
        report.check("clients completed", statistics.failures.isEmpty,
                     statistics.failures.isEmpty ? "\(clients.count) clients, every sync succeeded" : statistics.failures.prefix(3).joined(separator: "; "))
        report.check("one server restart", report.restarts == 1, "\(report.restarts) restart(s) mid-run")
        report.check("graceful stop at the end", stopStatus == 0, "`serve` exited with status \(stopStatus) on SIGTERM")

        // The server's ledgers, read with the library after the server stopped.
        var server: [ServerLedger] = []
        for name in userNames {
            var ledger = ServerLedger()
            let directory = dataDirectory + "/ledgers/" + name
            if FileManager.default.fileExists(atPath: directory) {
                let opened = try Ledger.open(directory: directory)
                defer { opened.close() }
                try opened.forEachRecord { view, _ in
                    guard view.hasEventID else { return }
                    if ledger.events.updateValue(RecordFingerprint.of(view), forKey: view.eventID) != nil { ledger.duplicates += 1 }
                    if case .stationEdit(let edit) = view.record { ledger.projection[edit.station, default: CompletionRegister()].apply(edit) }
                }
            }
            server.append(ledger)
        }

        // Every acknowledged event is on its user's server ledger with the bytes pushed, once.
        var missing = 0, altered = 0, acknowledged = 0
        for client in clients {
            for (id, fingerprint) in client.statistics.acknowledged {
                acknowledged += 1
                switch server[client.user].events[id] {
                case nil: missing += 1
                case let stored? where stored != fingerprint: altered += 1
                default: break
                }
            }
        }
        let duplicates = server.map(\.duplicates).reduce(0, +)
        report.check("acknowledged events on the server", missing == 0 && altered == 0,
                     "\(acknowledged) acknowledgements checked: \(missing) missing, \(altered) altered")
        report.check("no duplicates on the server", duplicates == 0,
                     "\(server.map(\.events.count).reduce(0, +)) events in \(userNames.count) server ledgers, \(duplicates) duplicated")

        // Every station edit a client made was acknowledged, and only its user's ledger has it.
        var created = 0, unacknowledged = 0, misplaced = 0
        var ownDevices = Array(repeating: Set<DeviceID>(), count: userNames.count)
        for client in clients { ownDevices[client.user].insert(client.ledger.localDevice) }
        for client in clients {
            try client.ledger.forEachRecord { view, _ in
                guard view.kind == .stationEdit, view.device == client.ledger.localDevice else { return }
                created += 1
                if client.statistics.acknowledged[view.eventID] == nil { unacknowledged += 1 }
            }
        }
        for (user, ledger) in server.enumerated() {
            misplaced += ledger.events.keys.filter { !ownDevices[user].contains($0.device) }.count
        }
        report.acknowledgedEvents = created - unacknowledged
        report.eventsPerSecond = report.durationSeconds > 0 ? Double(report.acknowledgedEvents) / report.durationSeconds : 0
        report.check("every event acknowledged", created == configuration.totalEvents && unacknowledged == 0,
                     "\(created) of \(configuration.totalEvents) events created, \(unacknowledged) never acknowledged")
        report.check("no event in another user's ledger", misplaced == 0, "\(misplaced) events of foreign devices on the server")

        // Every client holds exactly its user's server ledger and folds it to the same projection.
        var diverged: [String] = []
        for client in clients {
            var events: [EventID: UInt64] = [:]
            var projection: [UInt32: CompletionRegister] = [:]
            try client.ledger.forEachRecord { view, _ in
                guard view.hasEventID else { return }
                events[view.eventID] = RecordFingerprint.of(view)
                if case .stationEdit(let edit) = view.record { projection[edit.station, default: CompletionRegister()].apply(edit) }
            }
            if events != server[client.user].events || projection != server[client.user].projection {
                diverged.append("client \(client.index) (\(events.count) events, server \(server[client.user].events.count))")
            }
        }
        report.check("every client converged", diverged.isEmpty,
                     diverged.isEmpty ? "\(clients.count) clients equal to their user's server ledger (event set and projection)" : diverged.prefix(3).joined(separator: "; "))

        let kindsCovered = IntruderProbe.Kind.allCases.filter { $0 != .foreignDevice || userNames.count > 1 }
            .allSatisfy { (tally.answered[$0] ?? 0) > 0 }
        report.check("unauthorized requests refused", tally.totalAnswered > 0 && tally.breaches.isEmpty && kindsCovered,
                     !tally.breaches.isEmpty ? tally.breaches.prefix(3).joined(separator: "; ") : kindsCovered ? "\(tally.totalRefused) of \(tally.totalAnswered) refused (100%), every kind sent" : "some kind of unauthorized request was never answered" )
    }
}
