/// A pull answer of an end-to-end encrypted account (Schemas/encryption.md §11, "Fork detection
/// on pulls"): always frames of sealed records, whose header is this object and `count`. The
/// server cannot compare a device's digest of its plaintext event with the sealed copy it keeps,
/// so it answers the digests of its sealed copies with their epochs, and the device compares.
package struct SealedPullResponse: Codable, Sendable, Equatable {
    /// The digest of one stored sealed event (`EventDigest` of its stored bytes) and the epoch it
    /// was sealed under: a device seals its own event at that seq under that epoch's key
    /// (sealing is deterministic) and compares.
    package struct StoredDigest: Codable, Sendable, Equatable {
        package var digest: String
        package var epoch: UInt32
        package init(digest: String, epoch: UInt32) { (self.digest, self.epoch) = (digest, epoch) }
    }

    package var more: Bool
    package var cursor: UInt64
    package var serverHas: [String: UInt64]
    /// For every device of the request's `have` whose event at that seq the server holds.
    package var haveChecks: [String: StoredDigest]
    /// For every device of `serverHas`: its event at that seq.
    package var serverDigests: [String: StoredDigest]

    enum CodingKeys: String, CodingKey {
        case more, cursor
        case serverHas = "server_has"
        case haveChecks = "have_checks"
        case serverDigests = "server_digests"
    }

    package init(more: Bool, cursor: UInt64, serverHas: [String: UInt64], haveChecks: [String: StoredDigest],
                 serverDigests: [String: StoredDigest]) {
        (self.more, self.cursor, self.serverHas) = (more, cursor, serverHas)
        (self.haveChecks, self.serverDigests) = (haveChecks, serverDigests)
    }
}
