import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerSync
import NIOCore
import SyncClient
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
        let store = configuration.store.map { LoadStore.postgres(url: $0) } ?? .files(directory: work + "/server")
        let servers = try (0..<configuration.servers).map { index in
            try LoadServer(executable: configuration.executable, store: store,
                           logPath: work + (configuration.servers == 1 ? "/server.log" : "/server-\(index).log"))
        }
        do {
            let report = try await drive(configuration, work: work, servers: servers, httpClient: httpClient, log: log)
            try await httpClient.shutdown()
            return report
        } catch {
            for server in servers { await server.stop(signal: SIGKILL) }
            try? await httpClient.shutdown()
            throw error as? LoadError ?? LoadError.server("the run stopped: \(error)")
        }
    }

    private static func drive(_ configuration: LoadConfiguration, work: String, servers: [LoadServer],
                              httpClient: HTTPClient, log: @escaping @Sendable (String) -> Void) async throws -> LoadReport {
        // Names unique to the run, so one PostgreSQL database can take several runs.
        let run = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let userNames = (0..<configuration.userCount).map { "load-\(run)-user-\($0)" }
        let admin = servers[0]
        let tokens = try userNames.map { try admin.addUser($0) }
        let revokedName = "load-\(run)-revoked"
        let revokedToken = try admin.addUser(revokedName)
        let registering = ContinuousClock.now
        try await admin.store.register((0..<configuration.registeredUsers).map { "idle-\(run)-\($0)" })
        let registration = ContinuousClock.now - registering
        if configuration.registeredUsers > 0 { log("registered \(configuration.registeredUsers) idle users in \(registration)") }
        for server in servers {
            try await server.start()
            log("server on \(server.url), \(server.store)")
        }
        try admin.revokeTokens(of: revokedName)

        let clients = try (0..<configuration.clients).map { index in
            try LoadClient(index: index, user: index % userNames.count, directory: work + "/clients/c\(index)",
                           token: tokens[index % userNames.count], ports: servers.map(\.port), httpClient: httpClient,
                           configuration: configuration)
        }
        defer { clients.forEach { $0.ledger.close() } }

        // The main phase: clients, the intruder and the restart trigger at once.
        let progress = LoadProgress()
        let probe = IntruderProbe(urls: servers.map(\.url), httpClient: httpClient, tokens: tokens,
                                  revokedToken: revokedToken, interval: configuration.probeInterval)
        let probing = Task { await probe.run(progress: progress, concurrency: 4) }
        let victim = servers[Int(configuration.seed % UInt64(servers.count))]
        let restarting = Task { try await restart(victim, configuration, progress, log) }
        let machineBefore = ProcessSample.MachineTicks.now(), ownCPUBefore = ProcessSample.ownCPUSeconds()
        let serverCPUBefore = servers.map(\.cpuSeconds).reduce(0, +)
        let started = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run(progress: progress) } }
        }
        let duration = ContinuousClock.now - started
        let machineBusy = ProcessSample.MachineTicks.now().busyPercent(since: machineBefore)
        let ownCPU = ProcessSample.ownCPUSeconds() - ownCPUBefore
        let serverCPU = servers.map(\.cpuSeconds).reduce(0, +) - serverCPUBefore
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
        // PostgreSQL: what the server holds, through the API (a full pull per user, pages spread
        // over the instances) while they run; files: the ledgers themselves once `serve` stopped.
        var held: [ServerLedger] = []
        if !admin.store.isFiles {
            let connections = try tokens.map { token in
                try servers.map { server in
                    var connection = try SyncConnection(server: server.url, token: token)
                    connection.httpClient = httpClient
                    return connection
                }
            }
            for user in connections { held.append(try await ServerLedger.pull(user)) }
        }
        var stopStatuses: [Int32] = []
        for server in servers { stopStatuses.append(await server.stop(signal: SIGTERM)) }
        if case .files(let directory) = admin.store {
            held = try userNames.map { try ServerLedger.read(directory: directory + "/ledgers/" + $0) }
        }

        var report = LoadReport()
        report.store = admin.store.isFiles ? "files" : "postgres"
        report.servers = servers.count
        report.registeredUsers = configuration.registeredUsers
        report.registrationSeconds = registration.seconds
        report.startupSeconds = servers[0].firstStart?.seconds ?? 0
        report.startupRSSMiB = servers[0].firstStart?.rssMiB ?? 0
        report.peakRSSMiB = servers.map(\.peakRSSMiB).max() ?? 0
        report.serverCPUSeconds = serverCPU
        report.generatorCPUSeconds = ownCPU
        report.machineBusyPercent = machineBusy
        report.cores = ProcessInfo.processInfo.activeProcessorCount
        report.clients = configuration.clients
        report.users = userNames.count
        report.eventsPerClient = configuration.eventsPerClient
        report.batch = configuration.batch
        report.seed = configuration.seed
        report.durationSeconds = duration.seconds
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
        report.restarts = restarts.count
        report.restartSignal = configuration.restartWithKill ? "SIGKILL" : "SIGTERM"
        report.pushesInFlightAtRestart = restarts.inFlight
        report.pushesCutByRestart = restarts.cut
        report.retries = statistics.retries
        report.unauthorizedSent = tally.totalAnswered
        report.unauthorizedRefused = tally.totalRefused
        report.unauthorizedUnanswered = tally.unanswered
        for kind in IntruderProbe.Kind.allCases {
            report.unauthorizedByKind[kind.rawValue] = [tally.answered[kind] ?? 0, tally.refused[kind] ?? 0]
        }
        try verify(&report, clients: clients, statistics: statistics, tally: tally, server: held,
                   stopStatuses: stopStatuses, configuration: configuration)
        return report
    }

    /// What `restart` did: how many times it stopped the server, and for the last time the
    /// pushes in flight at the signal and how many of them then ended without an answer.
    struct Restarts {
        var count = 0
        var inFlight = 0
        var cut = 0
    }

    /// A kill repeated at most this often: see `restart`.
    package static let maximumKills = 5

    /// Restarts the server after the configured time or half of all events, while the clients
    /// keep going, and only while a push to it is in flight (sent, not answered). A client
    /// records an answer only when its task resumes, so on a busy machine every push counted in
    /// flight may in fact have been answered just before the signal; a SIGKILL that, once those
    /// pushes ended, cut none of them is repeated at the next push in flight (at most
    /// `maximumKills` times), so that the run always holds a kill that landed mid-push.
    private static func restart(_ server: LoadServer, _ configuration: LoadConfiguration, _ progress: LoadProgress,
                                _ log: @escaping @Sendable (String) -> Void) async throws -> Restarts {
        let started = ContinuousClock.now
        var restarts = Restarts()
        while await !progress.finished {
            let due: Bool
            if let seconds = configuration.restartAfterSeconds {
                due = ContinuousClock.now - started >= .milliseconds(Int(seconds * 1_000))
            } else {
                due = await progress.acknowledgedEvents >= configuration.totalEvents / 2
            }
            let acknowledged = await progress.acknowledgedEvents
            // The snapshot right before the signal: a push in it that then fails without an
            // answer was cut by the kill.
            let inFlight = due ? await progress.openPushes(port: server.port) : []
            if !inFlight.isEmpty {
                await server.stop(signal: configuration.restartWithKill ? SIGKILL : SIGTERM)
                log("server on \(server.url) stopped (\(configuration.restartWithKill ? "SIGKILL" : "SIGTERM")) after \(acknowledged) acknowledged events, \(inFlight.count) pushes in flight; restarting it on its port")
                try await server.start()
                restarts.count += 1
                restarts.inFlight = inFlight.count
                let waiting = ContinuousClock.now
                while await progress.stillOpen(among: inFlight) > 0, ContinuousClock.now - waiting < .seconds(60) {
                    try await Task.sleep(for: .milliseconds(5))
                }
                restarts.cut = await progress.unanswered(among: inFlight)
                if restarts.cut > 0 || !configuration.restartWithKill || restarts.count == maximumKills { return restarts }
                log("that SIGKILL cut no push (each had been answered); once more at the next push in flight")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return restarts
    }
}
