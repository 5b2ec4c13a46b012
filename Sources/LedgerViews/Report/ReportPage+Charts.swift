import LedgerCatalog
import LedgerCore

/// The two inline SVG charts: completions per year with their running total, and each
/// prefecture's completed share.
extension ReportPage {
    func charts(_ engine: StatisticsEngine) throws -> String {
        let dates = try engine.report(.dates, path: []).groups ?? []
        let years = dates.compactMap { g in Int(g.key).map { ($0, g.counts.completed) } }.sorted { $0.0 < $1.0 }
        let unknown = dates.first { $0.key == "unknown" }?.counts.completed ?? 0
        let prefectures = try engine.report(.prefectures, path: []).groups ?? []
        return """
            <section id="charts"><h2>\(HTMLText.escaped(words.cumulative))</h2>
            \(Self.cumulativeChart(years))
            \(unknown > 0 ? "<p class=\"help\">" + HTMLText.escaped(words.unknownDates(unknown)) + "</p>" : "")
            <h2>\(HTMLText.escaped(words.perPrefecture))</h2>
            \(Self.prefectureChart(prefectures))
            </section>

            """
    }

    /// Bars of each year's completions (the busiest year half the height) under the running
    /// total's line; every year from the first to the last is on the axis, so a gap shows as a gap.
    static func cumulativeChart(_ years: [(Int, Int)]) -> String {
        guard let first = years.first?.0, let last = years.last?.0 else {
            return "<svg id=\"chart-years\" class=\"chart\" viewBox=\"0 0 600 60\"></svg>"
        }
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
            bars += "<rect class=\"year\" x=\"\(fmt(x + step * 0.15))\" y=\"\(fmt(top + height - h))\" width=\"\(fmt(step * 0.7))\" height=\"\(fmt(h))\"><title>\(year): \(n) / \(running)</title></rect>"
            points.append("\(fmt(x + step / 2)),\(fmt(y))")
            if span <= 12 || i % max(1, span / 8) == 0 || year == last {
                labels += "<text x=\"\(fmt(x + step / 2))\" y=\"\(fmt(top + height + 16))\" text-anchor=\"middle\">\(year)</text>"
            }
        }
        return """
            <svg id="chart-years" class="chart" viewBox="0 0 600 215" role="img">\
            <line class="axis" x1="\(fmt(left))" y1="\(fmt(top + height))" x2="\(fmt(left + width))" y2="\(fmt(top + height))"/>\
            <text x="\(fmt(left - 6))" y="\(fmt(top + 4))" text-anchor="end">\(total)</text>\
            <text x="\(fmt(left - 6))" y="\(fmt(top + height))" text-anchor="end">0</text>\
            \(bars)<polyline class="cumulative" points="\(points.joined(separator: " "))"/>\(labels)</svg>
            """
    }

    /// One bar per prefecture: the completed share over a muted full-length bar.
    static func prefectureChart(_ groups: [StatsGroup]) -> String {
        let rowHeight = 16.0, left = 70.0, width = 440.0
        var body = ""
        for (i, g) in groups.enumerated() {
            let y = Double(i) * rowHeight
            let share = width * Double(max(0, g.counts.ratioPermille)) / 1000
            body += "<g class=\"pref\" data-pref=\"\(HTMLText.escaped(g.key))\"><text x=\"\(fmt(left - 6))\" y=\"\(fmt(y + 12))\" text-anchor=\"end\">\(HTMLText.escaped(g.label))</text>"
                + "<rect class=\"all\" x=\"\(fmt(left))\" y=\"\(fmt(y + 3))\" width=\"\(fmt(width))\" height=\"11\"/>"
                + "<rect class=\"done\" x=\"\(fmt(left))\" y=\"\(fmt(y + 3))\" width=\"\(fmt(share))\" height=\"11\"/>"
                + "<text x=\"\(fmt(left + width + 6))\" y=\"\(fmt(y + 12))\">\(g.counts.rateText)</text></g>"
        }
        return "<svg id=\"chart-prefectures\" class=\"chart\" viewBox=\"0 0 600 \(fmt(Double(groups.count) * rowHeight + 4))\" role=\"img\">\(body)</svg>"
    }

    /// One decimal, enough for a 600-unit-wide chart.
    static func fmt(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(abs(tenths % 10))"
    }
}
