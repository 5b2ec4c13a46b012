import LedgerCatalog
import LedgerCore

/// One pin of `map`, in its three formats (keys in docs/ledger-cli.md and Schemas/map.md): a JSON line with
/// sorted keys, a GeoJSON Point whose properties leave out `lat`/`lng`, or a line of text.
package struct MapPin {
    package var station: CatalogGeometry.Station
    package var zoom: Int
    package var minZoom: Int
    package var compDate: UInt32
    /// Every enabled station at this pin's position, completed first, when several share it
    /// (MapPin+SamePoint.swift); empty when the pin's station stands there alone.
    package var samePoint: [(station: CatalogGeometry.Station, compDate: UInt32)] = []

    package init(station: CatalogGeometry.Station, zoom: Int, minZoom: Int, compDate: UInt32) {
        (self.station, self.zoom, self.minZoom, self.compDate) = (station, zoom, minZoom, compDate)
    }

    /// The keys in sorted order (declaration order is encoding order); `lat`/`lng` only when the
    /// position is not the GeoJSON geometry.
    struct Properties: Encodable {
        var compDate: UInt32
        var completed: Bool
        var lat: Degrees?
        var lines: [String]
        var lng: Degrees?
        var minZoom: Int
        var name: String
        var `operator`: String
        var station: UInt32
        var stations: [SamePointStation]?
        var zoom: Int

        enum CodingKeys: String, CodingKey {
            case compDate = "comp_date", completed, lat, lines, lng, minZoom = "min_zoom", name, `operator`, station, stations, zoom
        }
    }

    private func properties(withPosition: Bool) -> Properties {
        Properties(compDate: compDate, completed: compDate > 0, lat: withPosition ? Degrees(station.lat) : nil,
                   lines: station.lines.map(\.name), lng: withPosition ? Degrees(station.lng) : nil, minZoom: minZoom,
                   name: station.name, operator: station.operatorName, station: station.id, stations: samePointStations,
                   zoom: zoom)
    }

    package func json() throws -> String { try OrderedJSONEncoder().encode(properties(withPosition: true)) }

    /// The pins as one FeatureCollection of Points, on one line.
    package static func geoJSON(_ pins: [MapPin]) throws -> String {
        try OrderedJSONEncoder().encode(GeoJSON.FeatureCollection(features: pins.map {
            GeoJSON.Feature(.point(GeoJSON.Position($0.station)), properties: $0.properties(withPosition: false))
        }))
    }

    package func text(_ language: OutputLanguage) -> String {
        let date = (try? CompletionDate(code: compDate)) ?? .notCompleted
        return "\(station.id)  \(station.name)  \(station.operatorName)  \(station.lines.map(\.name).joined(separator: ","))  \(date.label(language))"
    }
}
