import LedgerCatalog
import LedgerCore

/// `export --format geojson`: the catalogue and the completions as one RFC 7946
/// FeatureCollection that geojson.io, QGIS and Leaflet open as is. One Feature per line of text,
/// so a diff shows which station changed.
package enum CatalogExport {
    /// A station's completion as the projection holds it.
    package typealias Completion = (compDate: UInt32, memo: String)

    struct StationProperties: Encodable {
        var station: UInt32
        var name, yomi, `operator`: String
        var lines: [String]
        var pref: Int64
        var compDate: UInt32
        var completed: Bool
        var memo: String

        enum CodingKeys: String, CodingKey {
            case station, name, yomi, `operator`, lines, pref, compDate = "comp_date", completed, memo
        }
    }

    struct LineProperties: Encodable {
        var line: Int64
        var name, `operator`: String
        var total, completed, ratioPermille: Int

        enum CodingKeys: String, CodingKey { case line, name, `operator`, total, completed, ratioPermille = "ratio_permille" }
    }

    /// A station's or a line's properties, in one array of features.
    enum Properties: Encodable {
        case station(StationProperties)
        case line(LineProperties)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .station(let properties): try properties.encode(to: encoder)
            case .line(let properties): try properties.encode(to: encoder)
            }
        }
    }

    /// One Point per enabled station (properties station, name, yomi, operator, lines, pref,
    /// comp_date, completed, memo) and, with `lines`, one LineString per enabled line through its
    /// enabled stations in `s_sort` order (properties line, name, operator, total, completed,
    /// ratio_permille). A line with a single station repeats its position, because a LineString
    /// needs two; a line without enabled stations has no geometry and is left out.
    package static func featureCollection(_ geometry: CatalogGeometry, lines: Bool,
                                          completion: (UInt32) -> Completion) throws -> String {
        var features: [GeoJSON.Feature<Properties>] = []
        features.reserveCapacity(geometry.stations.count + (lines ? geometry.lines.count : 0))
        var completed = Set<UInt32>()
        for station in geometry.stations {
            let row = completion(station.id)
            if row.compDate > 0 { completed.insert(station.id) }
            features.append(GeoJSON.Feature(.point(GeoJSON.Position(station)), properties: .station(StationProperties(
                station: station.id, name: station.name, yomi: station.yomi, operator: station.operatorName,
                lines: station.lines.map(\.name), pref: station.pref, compDate: row.compDate,
                completed: row.compDate > 0, memo: row.memo))))
        }
        if lines {
            for line in geometry.lines {
                var positions = line.stations.compactMap { geometry.station($0).map(GeoJSON.Position.init) }
                guard let first = positions.first else { continue }
                if positions.count == 1 { positions.append(first) }
                let done = line.stations.filter(completed.contains).count
                features.append(GeoJSON.Feature(.lineString(positions), properties: .line(LineProperties(
                    line: line.id, name: line.name, operator: line.operatorName, total: line.stations.count,
                    completed: done, ratioPermille: done * 1000 / line.stations.count))))
            }
        }
        let collection = GeoJSON.FeatureCollection(bbox: boundingBox(geometry.stations)?.map(Degrees.init), features: features)
        return try OrderedJSONEncoder(linePerElement: ["features"]).encode(collection) + "\n"
    }

    /// west, south, east, north in micro-degrees (RFC 7946 §5), or nil without stations.
    private static func boundingBox(_ stations: [CatalogGeometry.Station]) -> [Int64]? {
        guard let first = stations.first else { return nil }
        var box = [first.lng, first.lat, first.lng, first.lat]
        for s in stations {
            box = [min(box[0], s.lng), min(box[1], s.lat), max(box[2], s.lng), max(box[3], s.lat)]
        }
        return box
    }
}
