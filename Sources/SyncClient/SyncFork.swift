import LedgerCore

/// Two copies of one ledger hold different events under one `(device, seq)` (Schemas/merge.md
/// §10): the server refused a pull with 409 `fork`, or its `server_digests` differ from this
/// ledger's events.
package struct SyncFork: Error, Sendable, Equatable {
    package var device: DeviceID
    package var seq: UInt64
    /// The server's sentence, when it refused.
    package var message: String?

    package init(device: DeviceID, seq: UInt64, message: String? = nil) {
        (self.device, self.seq, self.message) = (device, seq, message)
    }

    /// The refusal when the forked device is not this ledger's own (it received a copy's
    /// divergent events by `merge`) and `sync --rehome` was not asked for, or when a fork is
    /// met again right after a re-identification.
    package var refusal: LedgerError {
        LedgerError(.conflict, "device \(device)'s event #\(seq) differs between this ledger and the sync server: this ledger holds events of a copied ledger that it received by merge; run 'oritsubushi sync --rehome' to move them to a new device id and sync them (nothing is lost); nothing was written")
    }
}
