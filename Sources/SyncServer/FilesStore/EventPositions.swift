import LedgerCore

/// Every stored event's log position by (device, seq), so that the digest of any event (the fork
/// check of a pull, Schemas/merge.md §10) is one frame's read away: built in the one scan at
/// open, extended by pushes. 8 bytes an event (1 M events: 8 MiB), held only while the user's
/// ledger is open. (Keeping the digests themselves cost a SHA-256 of every pushed event, the
/// largest part of a push's work, for the few a pull asks about.)
struct EventPositions {
    private var lists: [ContiguousArray<UInt64>] = []
    private var listOfDevice: [DeviceID: Int] = [:]
    /// A log holds long runs of one device's events: the last device's list is found without hashing.
    private var lastDevice: DeviceID?
    private var lastList = 0

    /// Records the position of `device`'s next event (seqs are contiguous from 1).
    mutating func append(device: DeviceID, seq: UInt64, position: UInt64) {
        if device != lastDevice {
            if let known = listOfDevice[device] {
                lastList = known
            } else {
                lists.append([])
                lastList = lists.count - 1
                listOfDevice[device] = lastList
            }
            lastDevice = device
        }
        guard seq == UInt64(lists[lastList].count) + 1 else { return }
        lists[lastList].append(position)
    }

    /// Records the position of a sealed run (Schemas/encryption.md §3.5) as that of each of the
    /// events `first … last` it stands for.
    mutating func append(device: DeviceID, first: UInt64, last: UInt64, position: UInt64) {
        for seq in first...last { append(device: device, seq: seq, position: position) }
    }

    /// The position of the event at (device, seq), nil when not held.
    func position(_ device: DeviceID, _ seq: UInt64) -> UInt64? {
        guard seq >= 1, let list = listOfDevice[device].map({ lists[$0] }), seq <= UInt64(list.count) else { return nil }
        return list[Int(seq - 1)]
    }
}
