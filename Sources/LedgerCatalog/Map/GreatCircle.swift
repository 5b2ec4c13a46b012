import Foundation

/// Great-circle distance on the apps' sphere and the apps' words for it (Schemas/domain-rules.md §26, the map's
/// 「一覧」 list): both originals use a sphere of radius 6,378,137 m (the WGS84 equatorial radius).
package enum GreatCircle {
    package static let earthRadius = 6_378_137.0

    /// Metres between two positions in degrees. The apps use the spherical law of cosines; the
    /// haversine form is the same distance on the same sphere without its loss of precision
    /// below a few metres (stations 10 m apart must still read 「すぐそば」 reliably).
    package static func metres(lat1: Double, lng1: Double, lat2: Double, lng2: Double) -> Double {
        let radians = Double.pi / 180
        let phi1 = lat1 * radians, phi2 = lat2 * radians
        let dPhi = (lat2 - lat1) * radians, dLambda = (lng2 - lng1) * radians
        let sinPhi = sin(dPhi / 2), sinLambda = sin(dLambda / 2)
        let h = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// The apps' label (iOS Station.m, Android Station.java): up to 10 m 「すぐそば」; under 1 km
    /// whole metres, truncated; under 10 km kilometres with one decimal, rounded; otherwise whole
    /// kilometres, truncated. Written with a space before the unit, as Schemas/domain-rules.md §26
    /// spells them (約850 m, 約1.5 km, 約12 km).
    package static func label(metres: Double) -> String {
        if metres <= 10 { return "すぐそば" }
        if metres < 1000 { return "約\(Int(metres)) m" }
        if metres < 10_000 {
            // "%.1f": the nearest tenth (ties cannot matter at this precision); 9,960 m reads 約10.0 km, as in the apps.
            let tenths = Int((metres / 100).rounded())
            return "約\(tenths / 10).\(tenths % 10) km"
        }
        return "約\(Int(metres / 1000)) km"
    }
}
