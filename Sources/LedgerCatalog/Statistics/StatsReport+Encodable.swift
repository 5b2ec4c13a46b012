import LedgerCore

// `stats --json` (Schemas/stats.schema.json): a group's and the level's counts are flattened
// into the object, so the encoding is written out rather than synthesized.

extension StatsCounts: Encodable {
    enum CodingKeys: String, CodingKey {
        case total, completed, remaining, ratioPermille = "ratio_permille"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(total, forKey: .total)
        try container.encode(completed, forKey: .completed)
        try container.encode(remaining, forKey: .remaining)
        try container.encode(ratioPermille, forKey: .ratioPermille)
    }
}

extension StatsGroup: Encodable {
    enum CodingKeys: String, CodingKey { case key, label }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(label, forKey: .label)
        try counts.encode(to: encoder)
    }
}

extension StatsReport: Encodable {
    enum CodingKeys: String, CodingKey { case hierarchy, path, groups, stations }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hierarchy.rawValue, forKey: .hierarchy)
        try container.encode(path, forKey: .path)
        try counts.encode(to: encoder)
        try container.encodeIfPresent(groups, forKey: .groups)
        try container.encodeIfPresent(stations, forKey: .stations)
    }
}
