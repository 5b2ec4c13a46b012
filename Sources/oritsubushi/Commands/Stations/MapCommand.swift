import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerViews

enum MapFormat: String, ExpressibleByArgument, CaseIterable { case text, json, geojson }

enum MapShow: String, ExpressibleByArgument, CaseIterable {
    case all, completed, incomplete

    func accepts(compDate: UInt32) -> Bool {
        switch self {
        case .all: return true
        case .completed: return compDate > 0
        case .incomplete: return compDate == 0
        }
    }
}

struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "The map's pins for a viewport: stations that never vanish when you pan or zoom in.",
        discussion: """
            The viewport is --bbox SOUTH,WEST,NORTH,EAST, or --center LAT,LNG with --span DLAT,DLNG \
            (the box is the centre ± half the span), in decimal degrees. Its larger side decides the \
            zoom level; at a level every cell of a global grid shows its best stations (weight, then a \
            spatial-thinning key, then s_id) up to an allowance derived from --limit, so the pins shown \
            depend on the station, the level and --show alone, never on where the box is. The rule is \
            specified in Schemas/map.md. Pins are printed in priority order.
            """)

    @OptionGroup var options: LedgerOptions
    @Option(help: ArgumentHelp("The viewport in decimal degrees.", valueName: "south,west,north,east")) var bbox: String?
    @Option(help: ArgumentHelp("The viewport's centre in decimal degrees (with --span).", valueName: "lat,lng")) var center: String?
    @Option(help: ArgumentHelp("The viewport's size in degrees (with --center).", valueName: "dlat,dlng")) var span: String?
    @Option(help: "The most pins to show: 0 (unlimited) or at least 4 (default 100, as the iOS app).") var limit = 100
    @Option(help: "all, completed (comp_date > 0) or incomplete (comp_date = 0).") var show: MapShow = .all
    @Option(help: "text, json (one object per line) or geojson (a FeatureCollection).") var format: MapFormat = .text
    @OptionGroup var language: LanguageOptions

    func validate() throws {
        if limit != 0 && limit < 4 {
            throw ValidationError("--limit must be 0 (unlimited) or at least 4, since a viewport can touch four grid cells")
        }
        do { _ = try box() } catch let error as LedgerError { throw ValidationError(error.description) }
    }

    /// The viewport the options describe; exactly one of the two forms.
    func box() throws -> MapBox {
        switch (bbox, center, span) {
        case (let bbox?, nil, nil): return try MapBox(bbox: bbox)
        case (nil, let center?, let span?): return try MapBox(center: center, span: span)
        default: throw LedgerError(.usage, "give either --bbox SOUTH,WEST,NORTH,EAST or both --center LAT,LNG and --span DLAT,DLNG")
        }
    }

    func run() throws {
        let box = try box()
        let view = try CatalogView.open(options)
        defer { view.close() }
        let (catalog, projection) = (view.catalog, view.projection)
        let compDate = { (id: UInt32) in projection.row(id)?.compDate ?? 0 }
        let all = try catalog.mapEntries()
        let answer = MapIndex(all.filter { show.accepts(compDate: compDate($0.id)) }, limit: limit).query(box)
        let pins = try MapPin.pins(answer, stations: all, catalog: catalog, compDate: compDate)
        var out = OutputBuffer()
        switch format {
        case .json:
            for pin in pins { out.writeLine(try pin.json()) }
        case .geojson:
            out.writeLine(try MapPin.geoJSON(pins))
        case .text:
            let lang = language.language
            for pin in pins { out.writeLine(pin.text(lang)) }
            out.writeLine(lang == .ja ? "\(pins.count)駅 (ズーム \(answer.zoom))" : "\(Plural.count(pins.count, "pin")) at zoom \(answer.zoom)")
        }
        out.flush()
    }
}
