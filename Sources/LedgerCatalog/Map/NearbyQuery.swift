import Foundation

/// The apps' 「一覧」 list (domain.md §5) as a query of its own: enabled stations ordered by
/// great-circle distance from a point, nearest first, ties by `s_id` so the order is total.
/// The originals list only the pins already loaded; this looks at every enabled station.
package struct NearbyQuery: Sendable {
    /// The apps' visibility control 全駅 / 済 / 未.
    package enum Show: String, Sendable, CaseIterable {
        case all, completed, incomplete

        package func admits(compDate: UInt32) -> Bool {
            switch self {
            case .all: return true
            case .completed: return compDate > 0
            case .incomplete: return compDate == 0
            }
        }
    }

    package struct Hit: Sendable, Equatable {
        package var station: CatalogGeometry.Station
        package var metres: Double
    }

    /// The centre in degrees.
    package var latitude: Double
    package var longitude: Double
    /// At most this many stations; 0 = every one.
    package var limit: Int
    package var show: Show

    package init(latitude: Double, longitude: Double, limit: Int, show: Show = .all) {
        self.latitude = latitude
        self.longitude = longitude
        self.limit = limit
        self.show = show
    }

    /// The nearest stations of `geometry` that `show` admits, given each station's `comp_date`.
    package func run(_ geometry: CatalogGeometry, compDate: (UInt32) -> UInt32) -> [Hit] {
        var hits: [Hit] = []
        hits.reserveCapacity(geometry.stations.count)
        for station in geometry.stations where show.admits(compDate: compDate(station.id)) {
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
