import Foundation

/// The apps' 「一覧」 list (Schemas/domain-rules.md §26) as a query of its own: enabled stations ordered by
/// great-circle distance from a point, nearest first, ties by `s_id` so the order is total.
/// The originals list only the pins already loaded; this looks at every enabled station.
package struct NearbyQuery: Sendable {
    package struct Hit: Sendable, Equatable {
        package var station: CatalogGeometry.Station
        package var metres: Double
    }

    /// The centre in degrees, and at most `limit` stations (0 = every one).
    package var latitude, longitude: Double, limit: Int

    package init(latitude: Double, longitude: Double, limit: Int) {
        (self.latitude, self.longitude, self.limit) = (latitude, longitude, limit)
    }

    /// The nearest stations of `geometry` that `admits` keeps (the visibility filter 全駅 / 済 / 未).
    package func run(_ geometry: CatalogGeometry, admits: (UInt32) -> Bool = { _ in true }) -> [Hit] {
        var hits: [Hit] = []
        hits.reserveCapacity(geometry.stations.count)
        for station in geometry.stations where admits(station.id) {
            hits.append(Hit(station: station, metres: GreatCircle.metres(
                lat1: latitude, lng1: longitude, lat2: station.latitude, lng2: station.longitude)))
        }
        hits.sort { ($0.metres, $0.station.id) < ($1.metres, $1.station.id) }
        return limit > 0 && hits.count > limit ? Array(hits.prefix(limit)) : hits
    }

    /// `LAT,LNG` in decimal degrees (latitude −90…90, longitude −180…180), or nil.
    package static func coordinate(_ text: String) -> (latitude: Double, longitude: Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lng = Double(parts[1]),
              lat.isFinite, lng.isFinite, (-90...90).contains(lat), (-180...180).contains(lng) else { return nil }
        return (lat, lng)
    }
}
