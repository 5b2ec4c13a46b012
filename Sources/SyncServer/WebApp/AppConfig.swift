import LedgerSync

/// The body of `GET /app/config.json`: what this server offers the phone app beyond its files
/// (Schemas/sync-api.yaml). `tiles` is written as `null` when there are none, so that the app
/// reads one shape whatever the flags.
struct AppConfig: Encodable {
    let tiles: MapTiles?

    private enum Keys: String, CodingKey { case tiles }
    private enum TileKeys: String, CodingKey { case urlTemplate = "url_template", attribution }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        guard let tiles else { return try container.encodeNil(forKey: .tiles) }
        var nested = container.nestedContainer(keyedBy: TileKeys.self, forKey: .tiles)
        try nested.encode(tiles.urlTemplate, forKey: .urlTemplate)
        try nested.encode(tiles.attribution, forKey: .attribution)
    }

    /// The document's bytes; an encoding of two strings cannot fail.
    func json() -> [UInt8] {
        (try? WireJSON.encode(self)) ?? Array(#"{"tiles":null}"#.utf8)
    }
}
