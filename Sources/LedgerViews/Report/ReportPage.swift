import LedgerCatalog
import LedgerCore

/// `oritsubushi report`: one self-contained HTML page (docs/ledger-cli.md "The progress report").
/// Everything it needs is inside — the style sheet, SVG charts, the map's station data as JSON in a
/// `<script type="application/json">` and the map module that draws and pans it, all from the
/// files of Sources/ReportAssets/report (ReportTemplate) — so the file opens offline and no
/// request ever leaves it. The only URLs are Wikipedia links on the
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
        let time = asOf ?? activity.events.first.map { JapanTime.text($0.order.hlc, language, precision: .minutes) } ?? ""
        return ReportTemplate.page.render([
            "lang": language.rawValue, "title": words.title, "css": ReportAssets.text("report.css"),
            "stations": "\(all.counts.total)", "completed": "\(all.counts.completed)",
            "lines": "\(map.lines)", "completedLines": "\(map.completedLines)",
            "total": words.total(all.counts), "bar": Self.bar(all.counts),
            "lineCountLabel": words.lineCount, "completedLinesLabel": words.completedLines,
            "asOf": time.isEmpty ? "" : ReportTemplate.render("as-of", ["text": words.asOf(time)]),
            "mapLabel": words.map, "mapHelp": words.mapHelp, "legendDone": words.legendDone, "legendRest": words.legendRest,
            "viewBox": map.viewBox, "mapData": HTMLText.scriptSafeJSON(map.json),
            "hierarchies": try hierarchies(engine), "charts": try charts(engine), "latest": latestEvents(),
            "mapScript": Self.inlineModules(["mapCore.js", "map.js"]), "reportScript": ReportAssets.text("report.js"),
        ])
    }

    /// The report's modules as one script, in dependency order: a page opened from file:// cannot
    /// import, so each file's `import` lines go and its `export` keywords are dropped (the names
    /// stay in the one module scope). mapCore.js is shared with the phone app (docs/ledger-cli.md
    /// "The progress report").
    static func inlineModules(_ files: [String]) -> String {
        files.map { file in
            ReportAssets.text(file).split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> Substring? in
                if line.hasPrefix("import ") { return nil }
                return line.hasPrefix("export ") ? line.dropFirst("export ".count) : line
            }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// A progress bar of the completed share (truncated per-mille, as the rate).
    static func bar(_ c: StatsCounts) -> String {
        let permille = max(0, c.ratioPermille)
        return ReportTemplate.render("bar", ["width": "\(permille / 10).\(permille % 10)"])
    }
}
