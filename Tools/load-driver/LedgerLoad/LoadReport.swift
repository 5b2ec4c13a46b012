import Foundation

/// The figures and the verdict of one run; printed as Markdown or JSON.
package struct LoadReport: Sendable, Codable {
    package struct Check: Sendable, Codable {
        package var name: String
        package var passed: Bool
        package var detail: String
    }

    /// "files" or "postgres", the `serve` instances on it, and the idle users registered first.
    package var store = "files"
    package var servers = 1
    package var registeredUsers = 0
    package var registrationSeconds = 0.0
    /// The first instance's first start: spawn to /v1/health answering, and VmRSS then.
    package var startupSeconds = 0.0
    package var startupRSSMiB = 0.0
    /// What limits the figures: the largest VmHWM of any instance, the instances' CPU seconds
    /// in the main phase, the load generator's own (clients and probes), and how busy the whole
    /// machine was then (PostgreSQL included).
    package var peakRSSMiB = 0.0
    package var serverCPUSeconds = 0.0
    package var generatorCPUSeconds = 0.0
    package var machineBusyPercent = 0.0
    package var cores = 0
    package var clients = 0
    package var users = 0
    package var eventsPerClient = 0
    package var batch = 0
    package var seed: UInt64 = 0
    /// Events the clients created and the server acknowledged.
    package var acknowledgedEvents = 0
    package var durationSeconds = 0.0
    package var eventsPerSecond = 0.0
    package var pushes = 0
    package var pulls = 0
    package var pushP50Milliseconds = 0.0
    package var pushP99Milliseconds = 0.0
    package var pullP50Milliseconds = 0.0
    package var pullP99Milliseconds = 0.0
    package var disconnectsInjected = 0
    package var duplicatesReported = 0
    package var confirmedByPull = 0
    package var finalRounds = 0
    package var restarts = 0
    package var restartSignal = ""
    /// Pushes to the restarted instance sent and not answered when it was stopped, and how many
    /// of them then failed without an answer (with SIGKILL: proof that it landed mid-push).
    package var pushesInFlightAtRestart = 0
    package var pushesCutByRestart = 0
    package var retries = 0
    package var unauthorizedSent = 0
    package var unauthorizedRefused = 0
    package var unauthorizedByKind: [String: [Int]] = [:]
    package var unauthorizedUnanswered = 0
    package var checks: [Check] = []

    package var passed: Bool { !checks.isEmpty && checks.allSatisfy(\.passed) }

    mutating func check(_ name: String, _ passed: Bool, _ detail: String) {
        checks.append(Check(name: name, passed: passed, detail: detail))
    }

    /// The value at `fraction` (0.5, 0.99) of the sorted sample, nearest rank.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    package func markdown() -> String {
        func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }
        let refusedShare = unauthorizedSent == 0 ? "n/a" : String(format: "%.0f%%", Double(unauthorizedRefused) * 100 / Double(unauthorizedSent))
        let kinds = unauthorizedByKind.keys.sorted().map { "\($0) \(unauthorizedByKind[$0]![1])/\(unauthorizedByKind[$0]![0])" }
        var lines = [
            "| figure | value |",
            "| --- | --- |",
            "| store, instances | \(store), \(servers) |",
            "| idle users registered first | \(registeredUsers) (\(String(format: "%.1f s", registrationSeconds)), in process) |",
            "| start-up: spawn to /v1/health, VmRSS | \(String(format: "%.2f s, %.0f MiB", startupSeconds, startupRSSMiB)) |",
            "| clients (users) | \(clients) (\(users)) |",
            "| events per client, batch | \(eventsPerClient), \(batch) |",
            "| events acknowledged | \(acknowledgedEvents) |",
            "| duration | \(String(format: "%.1f s", durationSeconds)) |",
            "| throughput | \(String(format: "%.0f", eventsPerSecond)) events/s |",
            "| push latency p50 / p99 (\(pushes) pushes) | \(ms(pushP50Milliseconds)) / \(ms(pushP99Milliseconds)) |",
            "| pull latency p50 / p99 (\(pulls) pulls) | \(ms(pullP50Milliseconds)) / \(ms(pullP99Milliseconds)) |",
            "| server CPU in the main phase (all instances), peak VmHWM | \(String(format: "%.1f s (%.0f%% of one core), %.0f MiB", serverCPUSeconds, durationSeconds > 0 ? serverCPUSeconds * 100 / durationSeconds : 0, peakRSSMiB)) |",
            "| load generator CPU (main phase) | \(String(format: "%.1f s (%.0f%% of one core)", generatorCPUSeconds, durationSeconds > 0 ? generatorCPUSeconds * 100 / durationSeconds : 0)) |",
            "| machine busy in the main phase | \(String(format: "%.0f%% of %d cores", machineBusyPercent, cores)) |",
            "| disconnects injected | \(disconnectsInjected) |",
            "| duplicate events reported by pushes | \(duplicatesReported) |",
            "| events whose push reply was lost (confirmed by the next pull) | \(confirmedByPull) |",
            "| final sync rounds until quiet | \(finalRounds) |",
            "| server restarts | \(restarts) (\(restartSignal)) |",
            "| pushes in flight at the restart (of them never answered) | \(pushesInFlightAtRestart) (\(pushesCutByRestart)) |",
            "| client retries | \(retries) |",
            "| unauthorized requests refused / answered | \(unauthorizedRefused) / \(unauthorizedSent) (\(refusedShare)); \(kinds.joined(separator: ", ")); \(unauthorizedUnanswered) unanswered during the restart |",
            "| seed | \(seed) |",
            "",
            "| check | result | detail |",
            "| --- | --- | --- |",
        ]
        for check in checks {
            lines.append("| \(check.name) | \(check.passed ? "passed" : "FAILED") | \(check.detail) |")
        }
        lines.append("")
        lines.append(passed ? "All \(checks.count) checks passed." : "\(checks.filter { !$0.passed }.count) of \(checks.count) checks FAILED.")
        return lines.joined(separator: "\n")
    }

    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
