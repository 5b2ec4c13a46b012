import LedgerCore

/// `export --format geojson`: the catalogue and the completions as one RFC 7946
/// FeatureCollection that geojson.io, QGIS and Leaflet open as is. Coordinates are
/// `[longitude, latitude]` in WGS84 degrees, written exactly from the catalogue's micro-degrees
/// (no binary rounding). One Feature per line of text, so a diff shows which station changed.
package enum GeoJSONWriter {
    /// A station's completion as the projection holds it.
    package typealias Completion = (compDate: UInt32, memo: String)

    /// One Point per enabled station (properties station, name, yomi, operator, lines, pref,
    /// comp_date, completed, memo) and, with `lines`, one LineString per enabled line through its
    /// enabled stations in `s_sort` order (properties line, name, operator, total, completed,
    /// ratio_permille). A line with a single station repeats its position, because a LineString
    /// needs two; a line without enabled stations has no geometry and is left out.
    package static func featureCollection(_ geometry: CatalogGeometry, lines: Bool,
                                          completion: (UInt32) -> Completion) -> String {
        var features: [String] = []
        features.reserveCapacity(geometry.stations.count + (lines ? geometry.lines.count : 0))
        var completed = Set<UInt32>()
        for station in geometry.stations {
            let row = completion(station.id)
            if row.compDate > 0 { completed.insert(station.id) }
            features.append(feature(
                "{\"type\":\"Point\",\"coordinates\":\(position(station))}",
                properties: "\"station\":\(station.id),\"name\":\(JSONText.quoted(station.name)),"
                    + "\"yomi\":\(JSONText.quoted(station.yomi)),\"operator\":\(JSONText.quoted(station.operatorName)),"
                    + "\"lines\":[\(station.lines.map { JSONText.quoted($0.name) }.joined(separator: ","))],"
                    + "\"pref\":\(station.pref),\"comp_date\":\(row.compDate),\"completed\":\(row.compDate > 0),"
                    + "\"memo\":\(JSONText.quoted(row.memo))"))
        }
        if lines {
            for line in geometry.lines {
                var positions = line.stations.compactMap { geometry.station($0).map(position) }
                guard let first = positions.first else { continue }
                if positions.count == 1 { positions.append(first) }
                let done = line.stations.filter(completed.contains).count
                features.append(feature(
                    "{\"type\":\"LineString\",\"coordinates\":[\(positions.joined(separator: ","))]}",
                    properties: "\"line\":\(line.id),\"name\":\(JSONText.quoted(line.name)),"
                        + "\"operator\":\(JSONText.quoted(line.operatorName)),\"total\":\(line.stations.count),"
                        + "\"completed\":\(done),\"ratio_permille\":\(done * 1000 / line.stations.count)"))
            }
        }
        var bbox = ""
        if let box = boundingBox(geometry.stations) {
            bbox = "\"bbox\":[\(box.map(CatalogGeometry.degreesText).joined(separator: ","))],"
        }
        return "{\"type\":\"FeatureCollection\",\(bbox)\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    private static func feature(_ geometry: String, properties: String) -> String {
        "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":{\(properties)}}"
    }

    private static func position(_ station: CatalogGeometry.Station) -> String {
        "[\(CatalogGeometry.degreesText(station.lng)),\(CatalogGeometry.degreesText(station.lat))]"
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
