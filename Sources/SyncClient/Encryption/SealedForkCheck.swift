import LedgerCore
import LedgerSync

/// The fork check of an end-to-end encrypted account's pull, made by the device (Schemas/
/// encryption.md §11 "Fork detection on pulls"): the server answers the digest of its stored
/// sealed copy at a seq, with the epoch it was sealed under; the device seals its own event at
/// that seq under that epoch's key (sealing is deterministic, §3.2) and compares. A difference
/// is the same `SyncFork` as a plaintext account's (merge.md §10).
enum SealedForkCheck {
    /// Compares every entry of `stored` (by device, the server's copy at `seqs[device]`) with this
    /// ledger's event there, where it holds one.
    static func check(_ stored: [String: SealedPullResponse.StoredDigest], at seqs: [DeviceID: UInt64], in ledger: Ledger,
                      keys: KeyRing) throws {
        var wanted: [DeviceID: UInt64] = [:]
        for (hex, _) in stored {
            guard let device = DeviceID(hex: hex), let seq = seqs[device], seq > 0 else { continue }
            wanted[device] = seq
        }
        guard !wanted.isEmpty else { return }
        var fork: SyncFork?
        try ledger.forEachEvent(at: wanted) { view in
            guard fork == nil, let theirs = stored[view.device.description] else { return }
            guard let key = keys.key(epoch: theirs.epoch) else {
                throw SyncSealing.missingKey(epoch: theirs.epoch, current: keys.current.epoch).ledgerError
            }
            if try SyncSealing.digest(sealing: view, with: key).hex != theirs.digest {
                fork = SyncFork(device: view.device, seq: view.seq)
            }
        }
        if let fork { throw fork }
    }
}
