import LedgerCatalog
import LedgerCore

/// `oritsubushi report`: one self-contained HTML page (issue 13 §4). Everything it needs is
/// written here — inline CSS, inline SVG charts, the map's station data as JSON in a
/// `<script type="application/json">` and a small inline script that draws and pans it — so the
/// file opens offline and no request ever leaves it. The only URLs are Wikipedia links on the
/// station names of the latest events, as plain anchors.
///
/// Elements the browser test counts: `.line` polylines (one per enabled line, `completed` when
/// every enabled station on it is), `.station` circles (one per enabled station, `completed` when
/// its date is set), drawn by the script into `svg#map`; `#summary[data-stations][data-completed]`.
package struct ReportPage {
    package let snapshot: CatalogSnapshot
    package let projection: CompletionsProjection
    /// The latest station edits and the open conflicts.
    package var activity = ReportActivity()
    /// The time the report answers for, as shown (nil: the latest event's time).
    package var asOf: String?
    package var language: OutputLanguage = .en
    let geometry: CatalogGeometry

    package init(snapshot: CatalogSnapshot, projection: CompletionsProjection) {
        self.snapshot = snapshot
        self.projection = projection
        geometry = CatalogGeometry(snapshot: snapshot)
    }

    var words: ReportWords { ReportWords(language: language) }

    func compDate(_ station: UInt32) -> UInt32 { projection.row(station)?.compDate ?? 0 }

    package func html() throws -> String {
        let engine = StatisticsEngine(catalog: snapshot, projection: projection)
        let all = try engine.report(.prefectures, path: [])
        let map = try mapData()
        let time = asOf ?? activity.events.first.map { Self.japanTime($0.order.hlc) } ?? ""
        var out = """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLText.escaped(words.title))</title>
            <style>\(ReportAssets.css)</style></head><body>
            <header><h1>\(HTMLText.escaped(words.title))</h1>
            <p id="summary" data-stations="\(all.counts.total)" data-completed="\(all.counts.completed)" \
            data-lines="\(map.lines)" data-completed-lines="\(map.completedLines)">\
            <strong>\(Self.total(all.counts))</strong>\(Self.bar(all.counts))\
            <span>\(HTMLText.escaped(words.lineCount)) \(map.lines) · \(HTMLText.escaped(words.completedLines)) \(map.completedLines)</span>\
            \(time.isEmpty ? "" : "<span>" + HTMLText.escaped(words.asOf(time)) + "</span>")</p></header>
            <section id="map-section"><h2>\(HTMLText.escaped(words.map))</h2>
            <p class="help">\(HTMLText.escaped(words.mapHelp))</p>
            <p class="legend"><span class="key done"></span>\(HTMLText.escaped(words.legendDone)) \
            <span class="key rest"></span>\(HTMLText.escaped(words.legendRest))</p>
            <div id="map-frame"><svg id="map" viewBox="\(map.viewBox)" \
            preserveAspectRatio="xMidYMid meet" role="img"></svg><div id="tip" hidden></div></div>
            <script type="application/json" id="map-data">\(HTMLText.scriptSafeJSON(map.json))</script>
            </section>

            """
        out += try hierarchies(engine)
        out += try charts(engine)
        out += latestEvents()
        out += "<script>\(ReportAssets.script)</script>\n</body></html>\n"
        return out
    }

    /// `N駅中 M駅 R.r%`.
    static func total(_ c: StatsCounts) -> String { "\(c.total)駅中 \(c.completed)駅 \(c.rateText)" }

    /// A progress bar of the completed share (truncated per-mille, as the rate).
    static func bar(_ c: StatsCounts) -> String {
        let permille = max(0, c.ratioPermille)
        return "<span class=\"bar\"><span style=\"width:\(permille / 10).\(permille % 10)%\"></span></span>"
    }
}
