import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerViews

/// `nearby`: the apps' 「一覧」 list, the enabled stations nearest a station or a point.
struct Nearby: ParsableCommand {
    static let defaultLimit = 20

    static let configuration = CommandConfiguration(
        commandName: "nearby",
        abstract: "List the enabled stations nearest a station or a point, by great-circle distance.",
        discussion: """
            Distances are on the apps' sphere (radius 6,378,137 m) and labelled as the apps do: \
            すぐそば up to 10 m, 約N m under 1 km, 約N.N km under 10 km, else 約N km. A station's \
            own entry comes first (すぐそば), then the others; ties by s_id. Prints one station per \
            line: distance, s_id, name, operator, lines, completion date. --json prints JSON Lines with \
            station, name, lat, lng (degrees), comp_date, completed, operator, lines and distance_m \
            (metres, one decimal).
            """)

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The station to start from: s_id, name (津 or 津駅) or reading (つ). Or use --at.")
    var station: String?
    @OptionGroup var qualifiers: StationQualifierOptions
    @Option(help: ArgumentHelp("Start from this point instead: latitude,longitude in decimal degrees.", valueName: "lat,lng"))
    var at: String?
    @Option(help: "At most this many stations (default \(Nearby.defaultLimit); 0 = all).") var limit = Nearby.defaultLimit
    @Option(help: "all, completed (済) or incomplete (未).") var show: MapShow = .all
    @Flag(help: "Print JSON Lines.") var json = false
    @OptionGroup var language: LanguageOptions

    func validate() throws {
        switch (station, at) {
        case (nil, nil): throw ValidationError("give a STATION or --at LAT,LNG")
        case (_?, _?): throw ValidationError("give either a STATION or --at LAT,LNG, not both")
        default: break
        }
        if let at, NearbyQuery.coordinate(at) == nil {
            throw ValidationError("--at '\(at)' is not LAT,LNG in decimal degrees (latitude −90…90, longitude −180…180)")
        }
        if limit < 0 { throw ValidationError("--limit must be 0 (all) or a positive number") }
    }

    func run() throws {
        let view = try CatalogView.open(options)
        defer { view.close() }
        let geometry = CatalogGeometry(snapshot: try view.catalog.loadSnapshot())
        let centre: (latitude: Double, longitude: Double)
        if let station {
            let id = try view.resolve(station, qualifiers)
            guard let origin = geometry.station(id) else {
                throw LedgerError(.badInput, "station \(id) is not an enabled station of the catalogue, so it has no position")
            }
            centre = (origin.latitude, origin.longitude)
        } else {
            centre = NearbyQuery.coordinate(at!)!
        }
        let projection = view.projection
        let query = NearbyQuery(latitude: centre.latitude, longitude: centre.longitude, limit: limit)
        let hits = query.run(geometry) { show.accepts(compDate: projection.row($0)?.compDate ?? 0) }
        let lang = language.language
        var out = OutputBuffer()
        for hit in hits {
            let line = NearbyLine(hit, date: projection.row(hit.station.id)?.completionDate ?? .notCompleted)
            out.writeLine(json ? try line.json() : line.text(lang))
        }
        out.flush()
        if hits.isEmpty { Terminal.error("no station matches --show \(show.rawValue)") }
    }
}
