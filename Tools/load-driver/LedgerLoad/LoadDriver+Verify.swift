import Foundation
import LedgerCore
import LedgerSync

extension LoadDriver {
    /// The checks of RELIABILITY.md, "Server under load and faults"; `server` is what the store
    /// holds per user (index), read after the final sync.
    static func verify(_ report: inout LoadReport, clients: [LoadClient], statistics: ClientStatistics,
                       tally: IntruderProbe.Tally, server: [ServerLedger], stopStatuses: [Int32],
                       configuration: LoadConfiguration) throws {
        report.check("clients completed", statistics.failures.isEmpty,
                     statistics.failures.isEmpty ? "\(clients.count) clients, every sync succeeded" : statistics.failures.prefix(3).joined(separator: "; "))
        // More than one restart only when a SIGKILL cut no push (LoadDriver.restart).
        let restarted = report.restarts == 1 || (configuration.restartWithKill && (1...LoadDriver.maximumKills).contains(report.restarts))
        report.check("one server restart", restarted,
                     "\(report.restarts) restart(s) mid-run" + (stopStatuses.count > 1 ? " (one of \(stopStatuses.count) instances)" : ""))
        if configuration.restartWithKill {
            report.check("SIGKILL landed mid-push", report.pushesCutByRestart > 0,
                         "\(report.pushesInFlightAtRestart) pushes in flight at the last SIGKILL, \(report.pushesCutByRestart) of them never answered")
        }
        report.check("graceful stop at the end", stopStatuses.allSatisfy { $0 == 0 },
                     "`serve` exited with status \(stopStatuses.map(String.init).joined(separator: ", ")) on SIGTERM")

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
                     "\(server.map(\.events.count).reduce(0, +)) events in \(server.count) server ledgers, \(duplicates) duplicated")

        // Every station edit a client made was acknowledged, and only its user's ledger has it.
        var created = 0, unacknowledged = 0, misplaced = 0
        var ownDevices = Array(repeating: Set<DeviceID>(), count: server.count)
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
            let replica = try ServerLedger.fold(client.ledger)
            if replica.events != server[client.user].events || replica.projection != server[client.user].projection {
                diverged.append("client \(client.index) (\(replica.events.count) events, server \(server[client.user].events.count))")
            }
        }
        report.check("every client converged", diverged.isEmpty,
                     diverged.isEmpty ? "\(clients.count) clients equal to their user's server ledger (event set and projection)" : diverged.prefix(3).joined(separator: "; "))

        let kindsCovered = IntruderProbe.Kind.allCases.filter { $0 != .foreignDevice || server.count > 1 }
            .allSatisfy { (tally.answered[$0] ?? 0) > 0 }
        report.check("unauthorized requests refused", tally.totalAnswered > 0 && tally.breaches.isEmpty && kindsCovered,
                     !tally.breaches.isEmpty ? tally.breaches.prefix(3).joined(separator: "; ") : kindsCovered ? "\(tally.totalRefused) of \(tally.totalAnswered) refused (100%), every kind sent" : "some kind of unauthorized request was never answered" )
    }
}
