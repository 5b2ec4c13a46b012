import LedgerCore

/// A pull answer of an end-to-end encrypted account (Schemas/encryption.md §11, "Fork detection
/// on pulls"): always frames of sealed records, whose header is this object and `count`. The
/// server cannot compare a device's digest of its plaintext event with the sealed copy it keeps,
/// so it answers the digests of its sealed copies with their epochs, and the device compares.
package struct SealedPullResponse: Codable, Sendable, Equatable {
    /// The digest of one stored sealed event (`EventDigest` of its stored bytes) and the epoch it
    /// was sealed under: a device seals its own event at that seq under that epoch's key
    /// (sealing is deterministic) and compares.
    /// When the stored record is a sealed run (encryption.md §3.5), `first` and `last` are its
    /// bounds: the device seals its own events `first … last` as one run to compare.
    package struct StoredDigest: Codable, Sendable, Equatable {
        package var digest: String
        package var epoch: UInt32
        package var first: UInt64?
        package var last: UInt64?

        package init(digest: String, epoch: UInt32, first: UInt64? = nil, last: UInt64? = nil) {
            (self.digest, self.epoch, self.first, self.last) = (digest, epoch, first, last)
        }

        /// The digest and epoch of `view`, with its bounds when it is a run.
        package init(of view: SealedRecordView) {
            self.init(digest: EventDigest.hex(view.bytes), epoch: view.epoch,
                      first: view.kind == .run ? view.firstSeq : nil, last: view.kind == .run ? view.seq : nil)
        }
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
