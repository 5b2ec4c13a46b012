import Foundation
import LedgerLoad
import Testing

/// The load driver of Tools/load, bounded for CI and run as Tools/load runs it (the built
/// `load-generator`, a process of its own: `LoadGeneratorProcess` says why): the built
/// `oritsubushi serve` as a child process on loopback, 50 concurrent clients, cut requests, one SIGKILL restart mid-run and
/// unauthorized probes throughout; the SIGKILL waits for a push in flight to the server, and
/// the report counts the pushes it cut. The long run is `Tools/load` (RELIABILITY.md).
@Suite("Server under load and faults", .serialized)
struct ServerLoadTests {
    @Test("50 clients × 40 events with cut requests and a restart: nothing lost or duplicated, all converge, intruders refused",
          arguments: [(seed: UInt64(7), kill: true)])
    func boundedLoad(seed: UInt64, kill: Bool) async throws {
        let outcome = try await LoadGeneratorProcess.run(
            ["--clients", "50", "--events", "40", "--batch", "10", "--disconnect-rate", "0.2", "--seed", "\(seed)"]
                + (kill ? [] : ["--graceful-restart"]))
        let report = try #require(outcome.report, "load-generator exited \(outcome.status) without a report: \(outcome.log)")
        #expect(outcome.status == (report.passed ? 0 : 1), "\(outcome.log)")
        for check in report.checks {
            #expect(check.passed, "\(check.name): \(check.detail)")
        }
        #expect((1...LoadDriver.maximumKills).contains(report.restarts), "a second SIGKILL only when the first cut no push")
        // The kill waited for a push in flight; at least one then failed without an answer
        // (repeated, up to five kills, while one cut none).
        #expect(report.pushesCutByRestart > 0, "\(report.pushesInFlightAtRestart) in flight at the SIGKILL, none cut")
        #expect(report.disconnectsInjected > 0, "the run cut some requests")
        #expect(report.acknowledgedEvents == 50 * 40)
        #expect(report.unauthorizedSent > 0 && report.unauthorizedRefused == report.unauthorizedSent)
    }

    /// Several instances on one database are one server (Schemas/server-store.md, "PostgreSQL
    /// store"). Two `serve --store` processes on one fresh database; every client switches
    /// instance on every request; one instance is SIGKILLed mid-run (pushes in flight) and
    /// restarted.
    @Test("two serve instances on one PostgreSQL, one SIGKILLed mid-push: nothing lost or duplicated, all converge",
          .requiresPostgres)
    func twoInstancesOnPostgres() async throws {
        let database = try await TestPostgres.database()
        let outcome = try await LoadGeneratorProcess.run(
            ["--clients", "30", "--events", "40", "--batch", "10", "--disconnect-rate", "0.1", "--seed", "11",
             "--store", database.url, "--servers", "2"])
        let report = try #require(outcome.report, "load-generator exited \(outcome.status) without a report: \(outcome.log)")
        #expect(outcome.status == (report.passed ? 0 : 1), "\(outcome.log)")
        for check in report.checks {
            #expect(check.passed, "\(check.name): \(check.detail)")
        }
        #expect((1...LoadDriver.maximumKills).contains(report.restarts), "a second SIGKILL only when the first cut no push")
        #expect(report.pushesCutByRestart > 0, "\(report.pushesInFlightAtRestart) in flight at the SIGKILL, none cut")
        #expect(report.acknowledgedEvents == 30 * 40)
        // Below the driver's own checks (every station edit acknowledged is stored once): the
        // rows themselves, no event id stored twice (the runs' seqs, and the distinct ids among
        // them; a client's knowledge marks are events too, so at least the edits).
        let rows = try await database.sql("SELECT sum(last_seq - first_seq + 1)::text FROM event_runs")
        let distinct = try await database.sql("SELECT count(DISTINCT (device, s))::text FROM event_runs, generate_series(first_seq, last_seq) AS s")
        #expect((Int(rows.first ?? "") ?? 0) >= 30 * 40 && distinct == rows, "\(rows) \(distinct)")
        await database.drop()
    }

    @Test("bad options are refused before anything starts", arguments: [
        ("clients", 0), ("events", 0), ("batch", 6_000),
    ])
    func badOptions(option: String, value: Int) async throws {
        var configuration = LoadConfiguration(executable: LoadConfiguration.executable(near: CommandLine.arguments[0]))
        switch option {
        case "clients": configuration.clients = value
        case "events": configuration.eventsPerClient = value
        default: configuration.batch = value
        }
        await #expect(throws: LoadError.self) { _ = try await LoadDriver.run(configuration) }
    }
}
