import LedgerCore

/// Fingerprints of the events two ledgers both hold, as one side has them, to compare with the
/// other side's copies. Both hold every device's seqs 1…n contiguously, so the fingerprints sit
/// in a dense array per device indexed by seq, and a log's runs of one device's events need one
/// search of the few devices per run instead of a hash per event.
struct OverlapFingerprints {
    /// Device raw values, searched linearly (logs interleave devices often; hashing a
    /// `DeviceID` at every switch cost more than the fingerprints).
    private var devices: [UInt64] = []
    private var limits: [UInt64] = []
    private var prints: [[UInt64]] = []
    // The slot of the run being read.
    private var runDevice: UInt64 = 0
    private var runSlot = -1

    var isEmpty: Bool { devices.isEmpty }

    /// Expects each (device, seq) of `shared`: both hold that device's seqs 1…seq.
    init(_ shared: [(DeviceID, UInt64)] = []) {
        for (device, seq) in shared { expect(device, upTo: seq) }
    }

    /// Both sides hold `device`'s seqs 1…`seq`.
    mutating func expect(_ device: DeviceID, upTo seq: UInt64) {
        devices.append(device.rawValue)
        limits.append(seq)
        prints.append([UInt64](repeating: 0, count: Int(seq)))
    }

    @inline(__always)
    private mutating func slot(of device: DeviceID) -> Int {
        if device.rawValue != runDevice || runDevice == 0 {
            runDevice = device.rawValue
            runSlot = devices.firstIndex(of: device.rawValue) ?? -1
        }
        return runSlot
    }

    /// Records the fingerprint of `view` if it is one both hold; returns whether it was.
    mutating func record(_ view: RecordView) -> Bool {
        let slot = slot(of: view.device)
        guard slot >= 0, view.seq <= limits[slot] else { return false }
        prints[slot][Int(view.seq - 1)] = RecordFingerprint.of(view)
        return true
    }

    /// Whether `view` is not one both hold, or has the fingerprint recorded for it.
    mutating func matches(_ view: RecordView) -> Bool {
        guard view.hasEventID else { return true }
        let slot = slot(of: view.device)
        guard slot >= 0, view.seq <= limits[slot] else { return true }
        return prints[slot][Int(view.seq - 1)] == RecordFingerprint.of(view)
    }

    /// The first event, in (device, seq) order, whose fingerprint differs between two sides'
    /// records of the same expectations (both read their whole log, so every slot is filled).
    func firstDifference(from other: OverlapFingerprints) -> EventID? {
        precondition(devices == other.devices && limits == other.limits, "fingerprints of different expectations")
        var first: EventID?
        for slot in devices.indices where prints[slot] != other.prints[slot] {
            let seq = prints[slot].indices.first { prints[slot][$0] != other.prints[slot][$0] }!
            let id = EventID(device: DeviceID(rawValue: devices[slot]), seq: UInt64(seq + 1))
            if first.map({ (id.device, id.seq) < ($0.device, $0.seq) }) ?? true { first = id }
        }
        return first
    }
}
