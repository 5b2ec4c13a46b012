import Foundation
import LedgerCore

/// A map viewport in micro-degrees, half-open like the originals' query (Schemas/domain-rules.md §25):
/// `south ≤ lat < north`, `west ≤ lng < east`. `span` is the larger side, which decides the
/// zoom level (for `--center/--span` it comes from the span itself, so panning never changes it).
package struct MapBox: Sendable, Equatable {
    package var south, west, north, east: Int64
    package var span: Int64

    package init(south: Int64, west: Int64, north: Int64, east: Int64) {
        (self.south, self.west, self.north, self.east) = (south, west, north, east)
        span = max(north - south, east - west)
    }

    /// `--bbox SOUTH,WEST,NORTH,EAST` in degrees; refuses a box outside the globe or empty.
    package init(bbox text: String) throws {
        let values = try MapBox.numbers(text, count: 4, option: "--bbox", shape: "SOUTH,WEST,NORTH,EAST")
        let (s, w, n, e) = (values[0], values[1], values[2], values[3])
        guard (-90...90).contains(s), (-90...90).contains(n), (-180...180).contains(w), (-180...180).contains(e) else {
            throw LedgerError(.usage, "--bbox '\(text)' is outside the globe (latitudes −90…90, longitudes −180…180)")
        }
        let box = MapBox(south: CatalogGeometry.microDegrees(s), west: CatalogGeometry.microDegrees(w),
                         north: CatalogGeometry.microDegrees(n), east: CatalogGeometry.microDegrees(e))
        guard box.south < box.north, box.west < box.east else {
            throw LedgerError(.usage, "--bbox '\(text)' is empty: SOUTH must be below NORTH and WEST below EAST")
        }
        self = box
    }

    /// `--center LAT,LNG --span DLAT,DLNG` in degrees: the box centre ± span / 2, cut at the
    /// globe's edges (its `span` stays the one asked for).
    package init(center: String, span spanText: String) throws {
        let c = try MapBox.numbers(center, count: 2, option: "--center", shape: "LAT,LNG")
        let d = try MapBox.numbers(spanText, count: 2, option: "--span", shape: "DLAT,DLNG")
        guard (-90...90).contains(c[0]), (-180...180).contains(c[1]) else {
            throw LedgerError(.usage, "--center '\(center)' is outside the globe (latitude −90…90, longitude −180…180)")
        }
        let dLat = CatalogGeometry.microDegrees(d[0]), dLng = CatalogGeometry.microDegrees(d[1])
        guard dLat > 0, dLng > 0, d[0] <= 180, d[1] <= 360 else {
            throw LedgerError(.usage, "--span '\(spanText)' must be two positive spans of at most 180 and 360 degrees")
        }
        let south = CatalogGeometry.microDegrees(c[0]) - dLat / 2, west = CatalogGeometry.microDegrees(c[1]) - dLng / 2
        self.init(south: max(south, -90_000_000), west: max(west, -180_000_000),
                  north: min(south + dLat, 90_000_001), east: min(west + dLng, 180_000_001))
        span = max(dLat, dLng)
    }

    package func contains(lat: Int64, lng: Int64) -> Bool {
        south <= lat && lat < north && west <= lng && lng < east
    }

    private static func numbers(_ text: String, count: Int, option: String, shape: String) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == count, parts.allSatisfy({ $0?.isFinite == true }) else {
            throw LedgerError(.usage, "\(option) '\(text)' is not \(shape) in decimal degrees")
        }
        return parts.map { $0! }
    }
}
