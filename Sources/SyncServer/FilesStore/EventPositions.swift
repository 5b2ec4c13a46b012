import LedgerCore

/// Every stored event's log position by (device, seq), so that the digest of any event (the fork
/// check of a pull, Schemas/merge.md §10) is one frame's read away: built in the one scan at
/// open, extended by pushes. 8 bytes an event (1 M events: 8 MiB), held only while the user's
/// ledger is open. (Keeping the digests themselves cost a SHA-256 of every pushed event, the
/// largest part of a push's work, for the few a pull asks about.)
struct EventPositions {
    private var devices: [DeviceID: ContiguousArray<UInt64>] = [:]

    /// Records the position of `device`'s next event (seqs are contiguous from 1).
    mutating func append(device: DeviceID, seq: UInt64, position: UInt64) {
        guard seq == UInt64(devices[device]?.count ?? 0) + 1 else { return }
        devices[device, default: []].append(position)
    }

    /// The position of the event at (device, seq), nil when not held.
    func position(_ device: DeviceID, _ seq: UInt64) -> UInt64? {
        guard seq >= 1, let list = devices[device], seq <= UInt64(list.count) else { return nil }
        return list[Int(seq - 1)]
    }
}
