import LedgerCore
import LedgerCatalog

/// RFC 7946 GeoJSON as the views write it (`export --format geojson`, `map --format geojson`):
/// coordinates `[longitude, latitude]` in WGS84 degrees, written exactly from the catalogue's
/// micro-degrees; `type` first in every object, as the format's examples are.
package enum GeoJSON {
    package struct FeatureCollection<Properties: Encodable>: Encodable {
        var type = "FeatureCollection"
        /// west, south, east, north (§5); left out when nil.
        var bbox: [Degrees]?
        var features: [Feature<Properties>]

        package init(bbox: [Degrees]? = nil, features: [Feature<Properties>]) {
            (self.bbox, self.features) = (bbox, features)
        }
    }

    package struct Feature<Properties: Encodable>: Encodable {
        var type = "Feature"
        var geometry: Geometry
        var properties: Properties

        package init(_ geometry: Geometry, properties: Properties) {
            (self.geometry, self.properties) = (geometry, properties)
        }
    }

    package enum Geometry: Encodable {
        case point(Position)
        case lineString([Position])

        private enum CodingKeys: String, CodingKey { case type, coordinates }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .point(let position):
                try container.encode("Point", forKey: .type)
                try container.encode(position, forKey: .coordinates)
            case .lineString(let positions):
                try container.encode("LineString", forKey: .type)
                try container.encode(positions, forKey: .coordinates)
            }
        }
    }

    /// `[longitude, latitude]` of a station.
    package struct Position: Encodable {
        var lng, lat: Degrees

        package init(_ station: CatalogGeometry.Station) { (lng, lat) = (Degrees(station.lng), Degrees(station.lat)) }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(lng)
            try container.encode(lat)
        }
    }
}

/// Degrees written exactly from micro-degrees ("35.681236", "135.0": `CatalogGeometry.degreesText`)
/// by `OrderedJSONEncoder`; another encoder gets the nearest `Double`.
package struct Degrees: JSONExactNumber {
    package var micro: Int64

    package init(_ micro: Int64) { self.micro = micro }

    package var jsonNumberText: String { CatalogGeometry.degreesText(micro) }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(CatalogGeometry.degrees(micro))
    }
}
