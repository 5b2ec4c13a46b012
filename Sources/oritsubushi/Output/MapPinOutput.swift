import LedgerCatalog
import LedgerCore

/// One pin of `map`, in its three formats (keys in README and Schemas/map.md).
struct MapPinOutput {
    var station: CatalogGeometry.Station
    var zoom: Int
    var minZoom: Int
    var compDate: UInt32

    private var lines: String { "[" + station.lines.map { JSONText.quoted($0.name) }.joined(separator: ",") + "]" }

    /// The keys of a pin, `lat`/`lng` only when the position is not the GeoJSON geometry.
    private func object(withPosition: Bool) -> String {
        var fields = [("comp_date", "\(compDate)"), ("completed", "\(compDate > 0)"), ("lines", lines),
                      ("min_zoom", "\(minZoom)"), ("name", JSONText.quoted(station.name)),
                      ("operator", JSONText.quoted(station.operatorName)), ("station", "\(station.id)"), ("zoom", "\(zoom)")]
        if withPosition {
            fields += [("lat", CatalogGeometry.degreesText(station.lat)), ("lng", CatalogGeometry.degreesText(station.lng))]
        }
        return "{" + fields.sorted { $0.0 < $1.0 }.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    var json: String { object(withPosition: true) }

    var geoJSONFeature: String {
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":["
            + "\(CatalogGeometry.degreesText(station.lng)),\(CatalogGeometry.degreesText(station.lat))]},"
            + "\"properties\":\(object(withPosition: false))}"
    }

    func text(_ language: OutputLanguage) -> String {
        let date = (try? CompletionDate(code: compDate)) ?? .notCompleted
        return "\(station.id)  \(station.name)  \(station.operatorName)  \(station.lines.map(\.name).joined(separator: ","))  \(date.label(language))"
    }
}
