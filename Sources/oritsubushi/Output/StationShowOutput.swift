import LedgerCatalog

/// `station show --json`: one object (sorted keys). The catalogue's fields (name to lines, and
/// `wikipedia_url`) are present only for a catalogued station. The text form is
/// `StationShowOutput+Text.swift`.
struct StationShowOutput: Encodable {
    struct Operator: Encodable {
        var id: Int64
        var name: String
        var type: Int64
    }

    struct Line: Encodable {
        var id: Int64
        var name: String
        var enabled: Bool
    }

    /// What the catalogue knows of the station.
    struct Catalogued: Encodable {
        var name, yomi, wiki: String
        var pref: Int64
        var address: String
        var lat, lng, weight: Int64
        var enabled: Bool
        var `operator`: Operator
        var lines: [Line]
        var wikipediaURL: String

        enum CodingKeys: String, CodingKey {
            case name, yomi, wiki, pref, address, lat, lng, weight, enabled, `operator`, lines
            case wikipediaURL = "wikipedia_url"
        }
    }

    var station: UInt32
    var catalogued: Catalogued?
    var compDate: UInt32
    var memo: String
    var updateDate: Int64
    var history: UInt32

    enum CodingKeys: String, CodingKey {
        case station, compDate = "comp_date", memo, updateDate = "update_date", history
    }

    init(station: UInt32, row: ProjectedStation, catalogued: CatalogStation?, operator op: CatalogOperator?,
         lines: [CatalogLine]) {
        self.station = station
        self.catalogued = catalogued.map { s in
            Catalogued(name: s.name, yomi: s.yomi, wiki: s.wiki, pref: s.pref, address: s.address, lat: s.lat, lng: s.lng,
                       weight: s.weight, enabled: s.enabled,
                       operator: Operator(id: s.operatorID, name: op?.name ?? "", type: op?.type ?? 0),
                       lines: lines.map { Line(id: $0.id, name: $0.name, enabled: $0.enabled) },
                       wikipediaURL: s.wikipediaURL)
        }
        compDate = row.compDate
        memo = row.memo
        updateDate = row.updateDate
        history = row.events
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(station, forKey: .station)
        try catalogued?.encode(to: encoder)
        try container.encode(compDate, forKey: .compDate)
        try container.encode(memo, forKey: .memo)
        try container.encode(updateDate, forKey: .updateDate)
        try container.encode(history, forKey: .history)
    }
}
