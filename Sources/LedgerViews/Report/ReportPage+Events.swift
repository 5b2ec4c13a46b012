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
                "time": JapanTime.text(e.order.hlc, language, precision: .minutes), "device": e.deviceName, "station": station,
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

}
