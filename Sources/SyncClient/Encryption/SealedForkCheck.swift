import LedgerCore
import LedgerSync

/// The fork check of an end-to-end encrypted account's pull, made by the device (Schemas/
/// encryption.md §11 "Fork detection on pulls"): the server answers the digest of its stored
/// sealed copy at a seq, with the epoch it was sealed under; the device seals its own event at
/// that seq under that epoch's key (sealing is deterministic, §3.2) and compares. A difference
/// is the same `SyncFork` as a plaintext account's (merge.md §10).
enum SealedForkCheck {
    /// Compares every entry of `stored` (by device, the server's copy at `seqs[device]`) with this
    /// ledger's event there, where it holds one. An entry of a sealed run (`first`, `last`) is
    /// compared with this ledger's events `first … last` sealed as one run, where it holds all of
    /// them (a device that lacks some is sent the run and compares the events it opens, §11).
    /// An entry whose digest is that of a record this sync received, opened and admitted
    /// (`received`, by device) holds what this ledger holds: there is nothing to compare.
    static func check(_ stored: [String: SealedPullResponse.StoredDigest], at seqs: [DeviceID: UInt64], in ledger: Ledger,
                      keys: KeyRing, received: [DeviceID: String] = [:]) throws {
        var wanted: [DeviceID: UInt64] = [:]
        var runs: [(device: DeviceID, seq: UInt64, theirs: SealedPullResponse.StoredDigest)] = []
        for (hex, theirs) in stored {
            guard let device = DeviceID(hex: hex), let seq = seqs[device], seq > 0, received[device] != theirs.digest else { continue }
            if theirs.first != nil || theirs.last != nil {
                runs.append((device, seq, theirs))
            } else {
                wanted[device] = seq
            }
        }
        var fork: SyncFork?
        let sealer = RunSealer()
        for (device, seq, theirs) in runs.sorted(by: { $0.device < $1.device }) where fork == nil {
            guard let first = theirs.first, let last = theirs.last, first <= seq, seq <= last else {
                throw LedgerError(.unavailable, "the sync server stated the bounds of a sealed run that does not hold device \(device)'s seq \(seq)")
            }
            guard let events = try ledger.events(of: device, from: first, through: last) else { continue }
            let key = try key(theirs.epoch, keys)
            let sealed: SealedRecord
            switch events.bytes.withUnsafeBytes({ raw in
                Result { () throws(SealingError) in try sealer.seal(raw, device: device, first: first, last: last, with: key) }
            }) {
            case .success(let run): sealed = run
            case .failure(let error): throw SyncSealing.unsealable(device: device, seq: first, error)
            }
            if SyncSealing.digest(ofSealed: sealed).hex != theirs.digest { fork = SyncFork(device: device, seq: seq) }
        }
        if let fork { throw fork }
        guard !wanted.isEmpty else { return }
        try ledger.forEachEvent(at: wanted) { view in
            guard fork == nil, let theirs = stored[view.device.description] else { return }
            if try SyncSealing.digest(sealing: view, with: key(theirs.epoch, keys)).hex != theirs.digest {
                fork = SyncFork(device: view.device, seq: view.seq)
            }
        }
        if let fork { throw fork }
    }

    /// The key of `epoch`, or the sentence that says how to get it.
    private static func key(_ epoch: UInt32, _ keys: KeyRing) throws -> DataKey {
        guard let key = keys.key(epoch: epoch) else {
            throw SyncSealing.missingKey(epoch: epoch, current: keys.current.epoch).ledgerError
        }
        return key
    }
}
