/// One of a user's active devices as the user's own devices see it (`GET /v1/devices`,
/// `oritsubushi device list`; Schemas/sync-api.yaml): a token that was not revoked, with the name
/// its pairing gave it and the time of its last sync.
package struct UserDevice: Sendable, Equatable, Codable {
    /// The first `idLength` hex digits of the token's SHA-256 (`TokenHash.hex`): stable, shown to
    /// people, and of no use for guessing the token.
    package var id: String
    /// The device's name (from `POST /v1/pair`, a link, or a rename); nil for a token of
    /// `server add-user` / `add-token`.
    package var name: String?
    /// Unix milliseconds.
    package var created: Int64
    /// Unix milliseconds of the last answered pull or accepted push with this token (a store
    /// records it at most once a minute per device: `lastSyncResolution`).
    package var lastSync: Int64?

    package static let idLength = 12
    /// How stale `lastSync` may be: a store writes it at most this often per device.
    package static let lastSyncResolution: Int64 = 60_000

    package init(id: String, name: String?, created: Int64, lastSync: Int64?) {
        (self.id, self.name, self.created, self.lastSync) = (id, name, created, lastSync)
    }

    package init(tokenHash: String, name: String?, created: Int64, lastSync: Int64?) {
        self.init(id: Self.id(ofTokenHash: tokenHash), name: name, created: created, lastSync: lastSync)
    }

    /// The device id of a token, given as its hash.
    package static func id(ofTokenHash hash: String) -> String { String(hash.prefix(idLength)) }

    /// Whether `text` has the form of a device id (12 lower-case hex digits).
    package static func isID(_ text: String) -> Bool {
        text.utf8.count == idLength && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, created
        case lastSync = "last_sync"
    }
}
