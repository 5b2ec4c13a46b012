import Foundation
import LedgerLoad
import Testing

/// The load driver of Tools/load, bounded for CI: the built `oritsubushi serve` as a child
/// process on loopback, 50 concurrent clients, cut requests, one SIGKILL restart mid-run and
/// unauthorized probes throughout. The long run is `Tools/load` (RELIABILITY.md).
@Suite("Server under load and faults", .serialized)
struct ServerLoadTests {
    @Test("50 clients × 40 events with cut requests and a restart: nothing lost or duplicated, all converge, intruders refused",
          arguments: [(seed: UInt64(7), kill: true)])
    func boundedLoad(seed: UInt64, kill: Bool) async throws {
        var configuration = LoadConfiguration(executable: LoadConfiguration.executable(near: CommandLine.arguments[0]))
        configuration.clients = 50
        configuration.eventsPerClient = 40
        configuration.batch = 10
        configuration.disconnectRate = 0.2
        configuration.restartWithKill = kill
        configuration.seed = seed
        let report = try await LoadDriver.run(configuration)
        for check in report.checks {
            #expect(check.passed, "\(check.name): \(check.detail)")
        }
        #expect(report.restarts == 1)
        #expect(report.disconnectsInjected > 0, "the run cut some requests")
        #expect(report.acknowledgedEvents == 50 * 40)
        #expect(report.unauthorizedSent > 0 && report.unauthorizedRefused == report.unauthorizedSent)
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
