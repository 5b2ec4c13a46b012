/// The catalogue as the map side needs it (the pin query, `nearby`, GeoJSON, the report): every
/// enabled station with its position, operator and enabled lines, and every enabled line with its
/// enabled stations in `stations_lines.s_sort` order. Built once from a `CatalogSnapshot`, so a
/// command reads the catalogue database a single time.
package struct CatalogGeometry: Sendable {
    /// A line as a station lists it.
    package struct LineRef: Sendable, Equatable {
        package var id: Int64
        package var name: String
    }

    package struct Station: Sendable, Equatable {
        package var id: UInt32
        package var name, yomi: String
        package var operatorID: Int64
        package var operatorName: String
        /// Prefecture code 1…47 (Schemas/domain-rules.md §9).
        package var pref: Int64
        /// Position in micro-degrees, as the catalogue stores it.
        package var lat, lng: Int64
        /// Map priority: lower is shown first (Schemas/domain-rules.md §9).
        package var weight: Int64
        /// Enabled lines through the station, in `l_id` order (the apps' callout order).
        package var lines: [LineRef]

        package var latitude: Double { CatalogGeometry.degrees(lat) }
        package var longitude: Double { CatalogGeometry.degrees(lng) }
    }

    package struct Line: Sendable, Equatable {
        package var id: Int64
        package var name: String
        package var operatorID: Int64
        package var operatorName: String
        /// Enabled stations on the line in `s_sort` order (then `s_id`), the order to draw it in.
        package var stations: [UInt32]
    }

    package var version: Int64
    /// Enabled stations in `s_id` order.
    package var stations: [Station]
    /// Enabled lines in `l_id` order.
    package var lines: [Line]
    private var stationIndex: [UInt32: Int]

    /// Micro-degrees (the catalogue's unit) to degrees.
    package static func degrees(_ micro: Int64) -> Double { Double(micro) / 1_000_000 }

    /// Micro-degrees as exact decimal degrees for JSON and text ("35.681236", "-0.5", "135.0"):
    /// no binary rounding, at most six decimals, trailing zeros dropped.
    package static func degreesText(_ micro: Int64) -> String {
        let magnitude = micro.magnitude
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        return (micro < 0 ? "-" : "") + "\(magnitude / 1_000_000).\(fraction)"
    }

    /// Degrees to micro-degrees, rounded to the nearest unit.
    package static func microDegrees(_ degrees: Double) -> Int64 { Int64((degrees * 1_000_000).rounded()) }

    /// Reads the catalogue of `store` once.
    package static func load(from store: CatalogStore) throws -> CatalogGeometry {
        CatalogGeometry(snapshot: try store.loadSnapshot())
    }

    package init(snapshot: CatalogSnapshot) {
        version = snapshot.version
        var enabledLines: [Int64: Int] = [:]
        var lines: [Line] = []
        for line in snapshot.lines.sorted(by: { $0.id < $1.id }) where line.enabled {
            enabledLines[line.id] = lines.count
            lines.append(Line(id: line.id, name: line.name, operatorID: line.operatorID,
                              operatorName: snapshot.operator(line.operatorID)?.name ?? "", stations: []))
        }
        var stationLines: [UInt32: [LineRef]] = [:]
        let enabledStations = Set(snapshot.stations.lazy.filter(\.enabled).map(\.id))
        // Memberships come ordered by line, s_sort, s_id (CatalogStore.loadSnapshot).
        for membership in snapshot.memberships where enabledStations.contains(membership.stationID) {
            guard let index = enabledLines[membership.lineID] else { continue }
            lines[index].stations.append(membership.stationID)
            stationLines[membership.stationID, default: []].append(LineRef(id: lines[index].id, name: lines[index].name))
        }
        stations = snapshot.stations.filter(\.enabled).sorted { $0.id < $1.id }.map { station in
            Station(id: station.id, name: station.name, yomi: station.yomi, operatorID: station.operatorID,
                    operatorName: snapshot.operator(station.operatorID)?.name ?? "", pref: station.pref,
                    lat: station.lat, lng: station.lng, weight: station.weight,
                    lines: (stationLines[station.id] ?? []).sorted { $0.id < $1.id })
        }
        self.lines = lines
        stationIndex = Dictionary(stations.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The enabled station `id`, if any.
    package func station(_ id: UInt32) -> Station? { stationIndex[id].map { stations[$0] } }
}
