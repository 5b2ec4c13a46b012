import LedgerCore
import LedgerSync

/// Every stored event's `EventDigest` by (device, seq), for the fork check of a pull
/// (Schemas/merge.md §10) without reading segments: built in the one scan at open, extended by
/// pushes. 16 bytes an event (1 M events: 16 MiB), held only while the user's ledger is open.
struct DigestIndex {
    private var devices: [DeviceID: ContiguousArray<EventDigest.Value>] = [:]

    /// Records the digest of `device`'s next event (seqs are contiguous from 1).
    mutating func append(device: DeviceID, seq: UInt64, digest: EventDigest.Value) {
        guard seq == UInt64(devices[device]?.count ?? 0) + 1 else { return }
        devices[device, default: []].append(digest)
    }

    /// The digest of the event at (device, seq), nil when not held.
    func digest(_ device: DeviceID, _ seq: UInt64) -> String? {
        guard seq >= 1, let list = devices[device], seq <= UInt64(list.count) else { return nil }
        return list[Int(seq - 1)].hex
    }
}
