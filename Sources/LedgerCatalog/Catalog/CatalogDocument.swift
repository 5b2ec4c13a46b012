/// The catalogue as one JSON document for the phone app (`GET /v1/catalog`,
/// Schemas/catalog-document.md): every operator, line and station the app needs to draw the map,
/// search, list nearby stations and count the statistics offline. Positions stay in the
/// catalogue's integer micro-degrees, so the app computes the map rule (Schemas/map.md) on the
/// same integers as the CLI.
package struct CatalogDocument: Encodable, Sendable {
    package struct Operator: Encodable, Sendable {
        var id: Int64
        var name: String
        var type: Int64
        var enabled: Bool
    }

    package struct Line: Encodable, Sendable {
        var id: Int64
        var name: String
        var `operator`: Int64
        var enabled: Bool
        /// The line's stations in `s_sort` order: the map draws the line through them.
        var stations: [UInt32]
    }

    package struct Station: Encodable, Sendable {
        var id: UInt32
        var name, yomi, wiki: String
        var pref: Int64
        /// The address (the 全都道府県 station lists are ordered by it).
        var address: String
        var lat, lng: Int64
        var weight: Int64
        var `operator`: Int64
        /// The station's lines, in `l_id` order.
        var lines: [Int64]
        var enabled: Bool
    }

    /// The document's own format version (1).
    var format = 1
    var version: Int64
    var operators: [Operator]
    var lines: [Line]
    var stations: [Station]

    package init(_ snapshot: CatalogSnapshot) {
        version = snapshot.version
        operators = snapshot.operators.map { Operator(id: $0.id, name: $0.name, type: $0.type, enabled: $0.enabled) }
        var stationsOfLine: [Int64: [UInt32]] = [:], linesOfStation: [UInt32: [Int64]] = [:]
        for membership in snapshot.memberships {  // ordered by line, then s_sort
            stationsOfLine[membership.lineID, default: []].append(membership.stationID)
            linesOfStation[membership.stationID, default: []].append(membership.lineID)
        }
        lines = snapshot.lines.map {
            Line(id: $0.id, name: $0.name, operator: $0.operatorID, enabled: $0.enabled, stations: stationsOfLine[$0.id] ?? [])
        }
        stations = snapshot.stations.map {
            Station(id: $0.id, name: $0.name, yomi: $0.yomi, wiki: $0.wiki, pref: $0.pref, address: $0.address, lat: $0.lat, lng: $0.lng,
                    weight: $0.weight, operator: $0.operatorID, lines: Array(Set(linesOfStation[$0.id] ?? [])).sorted(),
                    enabled: $0.enabled)
        }
    }
}
