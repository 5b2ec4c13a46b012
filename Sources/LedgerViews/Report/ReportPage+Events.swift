import Foundation
import LedgerCatalog
import LedgerCore

/// The latest station edits and the number of open conflicts.
extension ReportPage {
    func latestEvents() -> String {
        var rows: [String] = []
        for e in activity.events {
            let station = snapshot.station(e.station)
            let name = station.map {
                "<a href=\"\(HTMLText.escaped($0.wikipediaURL))\" rel=\"noreferrer\">\(HTMLText.escaped($0.name))</a>"
            } ?? "#\(e.station)"
            var change: [String] = []
            if let code = e.compDate {
                change.append(((try? CompletionDate(code: code)) ?? .notCompleted).label(language))
            }
            if let memo = e.memo { change.append(words.memo + " " + JSONText.quoted(memo)) }
            rows.append("<tr><td>\(HTMLText.escaped(Self.japanTime(e.order.hlc)))</td><td>\(HTMLText.escaped(e.deviceName))</td>"
                        + "<td>\(name)</td><td>\(HTMLText.escaped(change.joined(separator: " · ")))</td></tr>")
        }
        let table = rows.isEmpty ? "<p>\(HTMLText.escaped(words.noEvents))</p>" : """
            <div class="scroll"><table id="events"><thead><tr><th>\(words.time)</th><th>\(words.device)</th>\
            <th>\(words.station)</th><th>\(words.change)</th></tr></thead><tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table></div>
            """
        return """
            <section id="latest"><h2>\(HTMLText.escaped(words.latest))</h2>
            \(table)
            <p id="conflicts" data-count="\(activity.openConflicts)">\(HTMLText.escaped(words.conflicts)): \
            <strong>\(HTMLText.escaped(words.conflictCount(activity.openConflicts)))</strong></p></section>

            """
    }

    /// An event's time in Japan time, to the minute: `2026-11-24 13:30 JST`.
    package static func japanTime(_ hlc: HybridTimestamp) -> String {
        let iso = ISO8601.format(milliseconds: hlc.milliseconds + 9 * 3_600_000)
        return String(iso.prefix(16)).replacingOccurrences(of: "T", with: " ") + " JST"
    }
}
