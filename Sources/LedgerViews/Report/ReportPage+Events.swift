import Foundation
import LedgerCatalog
import LedgerCore

/// The latest station edits and the number of open conflicts.
extension ReportPage {
    func latestEvents() -> String {
        var rows: [String] = []
        for e in activity.events {
            let station = snapshot.station(e.station).map {
                ReportTemplate.render("station-link", ["url": $0.wikipediaURL, "name": $0.name])
            } ?? HTMLText.escaped("#\(e.station)")
            var change: [String] = []
            if let code = e.compDate {
                change.append(((try? CompletionDate(code: code)) ?? .notCompleted).label(language))
            }
            if let memo = e.memo { change.append(words.memo + " " + JSONText.quoted(memo)) }
            rows.append(ReportTemplate.render("event", [
                "time": Self.japanTime(e.order.hlc), "device": e.deviceName, "station": station,
                "change": change.joined(separator: " · "),
            ]))
        }
        let table = rows.isEmpty ? ReportTemplate.render("no-events", ["text": words.noEvents]) : ReportTemplate.render("events", [
            "timeLabel": words.time, "deviceLabel": words.device, "stationLabel": words.station,
            "changeLabel": words.change, "rows": rows.joined(separator: "\n"),
        ])
        return ReportTemplate.render("latest", [
            "latestLabel": words.latest, "table": table, "count": "\(activity.openConflicts)",
            "conflictsLabel": words.conflicts, "countText": words.conflictCount(activity.openConflicts),
        ])
    }

    /// An event's time in Japan time, to the minute: `2026-11-24 13:30 JST`.
    package static func japanTime(_ hlc: HybridTimestamp) -> String {
        let iso = ISO8601.format(milliseconds: hlc.milliseconds + 9 * 3_600_000)
        return String(iso.prefix(16)).replacingOccurrences(of: "T", with: " ") + " JST"
    }
}
