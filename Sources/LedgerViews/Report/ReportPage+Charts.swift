import LedgerCatalog
import LedgerCore

/// The two SVG charts (fragments.html): completions per year with their running total, and each
/// prefecture's completed share.
extension ReportPage {
    func charts(_ engine: StatisticsEngine) throws -> String {
        let dates = try engine.report(.dates, path: []).groups ?? []
        let years = dates.compactMap { g in Int(g.key).map { ($0, g.counts.completed) } }.sorted { $0.0 < $1.0 }
        let unknown = dates.first { $0.key == "unknown" }?.counts.completed ?? 0
        let prefectures = (try engine.report(.prefectures, path: []).groups ?? []).map(words.prefecture)
        return ReportTemplate.render("charts", [
            "cumulativeLabel": words.cumulative, "years": Self.cumulativeChart(years),
            "unknown": unknown > 0 ? ReportTemplate.render("help", ["text": words.unknownDates(unknown)]) : "",
            "perPrefectureLabel": words.perPrefecture, "prefectures": Self.prefectureChart(prefectures),
        ])
    }

    /// Bars of each year's completions (the busiest year half the height) under the running
    /// total's line; every year from the first to the last is on the axis, so a gap shows as a gap.
    static func cumulativeChart(_ years: [(Int, Int)]) -> String {
        guard let first = years.first?.0, let last = years.last?.0 else { return ReportTemplate.render("years-empty", [:]) }
        let count = Dictionary(uniqueKeysWithValues: years)
        let span = last - first + 1
        let total = years.reduce(0) { $0 + $1.1 }
        let busiest = years.map(\.1).max() ?? 1
        let (left, top, width, height) = (50.0, 10.0, 530.0, 180.0)
        let step = width / Double(span)
        var bars = "", points: [String] = [], labels = "", running = 0
        for (i, year) in (first...last).enumerated() {
            let n = count[year] ?? 0
            running += n
            let x = left + Double(i) * step
            let h = height / 2 * Double(n) / Double(max(busiest, 1))
            let y = top + height - height * Double(running) / Double(max(total, 1))
            bars += ReportTemplate.render("year-bar", [
                "x": fmt(x + step * 0.15), "y": fmt(top + height - h), "width": fmt(step * 0.7), "height": fmt(h),
                "year": "\(year)", "count": "\(n)", "running": "\(running)",
            ])
            points.append("\(fmt(x + step / 2)),\(fmt(y))")
            if span <= 12 || i % max(1, span / 8) == 0 || year == last {
                labels += ReportTemplate.render("year-label", ["x": fmt(x + step / 2), "y": fmt(top + height + 16), "year": "\(year)"])
            }
        }
        return ReportTemplate.render("years", [
            "left": fmt(left), "right": fmt(left + width), "bottom": fmt(top + height), "labelX": fmt(left - 6),
            "topLabelY": fmt(top + 4), "total": "\(total)", "bars": bars, "points": points.joined(separator: " "), "labels": labels,
        ])
    }

    /// One bar per prefecture: the completed share over a muted full-length bar.
    static func prefectureChart(_ groups: [StatsGroup]) -> String {
        let rowHeight = 16.0, left = 70.0, width = 440.0
        var rows = ""
        for (i, g) in groups.enumerated() {
            let y = Double(i) * rowHeight
            rows += ReportTemplate.render("prefecture", [
                "key": g.key, "label": g.label, "labelX": fmt(left - 6), "textY": fmt(y + 12), "left": fmt(left),
                "barY": fmt(y + 3), "width": fmt(width), "share": fmt(width * Double(max(0, g.counts.ratioPermille)) / 1000),
                "rateX": fmt(left + width + 6), "rate": g.counts.rateText,
            ])
        }
        return ReportTemplate.render("prefectures", ["height": fmt(Double(groups.count) * rowHeight + 4), "rows": rows])
    }

    /// One decimal, enough for a 600-unit-wide chart.
    static func fmt(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(abs(tenths % 10))"
    }
}
