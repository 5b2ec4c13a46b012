import LedgerCore

extension Ledger {
    /// `EventDigest` of this ledger's event `(device, seq)` for each entry of `wanted` it holds
    /// (seq 0 and unheld seqs are left out). Reads only the segments whose footer ranges hold a
    /// wanted event — usually the newest one — each from its first record up to its end.
    package func eventDigests(at wanted: [DeviceID: UInt64]) throws -> [DeviceID: String] {
        var found: [DeviceID: String] = [:]
        try forEachEvent(at: wanted) { found[$0.device] = EventDigest.hex($0) }
        return found
    }

    /// Calls `body` with this ledger's event `(device, seq)` for each entry of `wanted` it holds,
    /// read as `eventDigests` reads them (an encrypted account's fork check seals them,
    /// Schemas/encryption.md §11).
    package func forEachEvent(at wanted: [DeviceID: UInt64], _ body: (RecordView) throws -> Void) throws {
        let targets = wanted.filter { $0.value > 0 && $0.value <= versionVector[$0.key] ?? 0 }
        var found = Set<DeviceID>()
        for segment in segments where found.count < targets.count {
            let holds = segment.summary.deviceRanges.contains { range in
                targets[range.device].map { range.firstSeq <= $0 && $0 <= range.lastSeq && !found.contains(range.device) } ?? false
            }
            guard holds else { continue }
            try forEachRecord(from: segment.header.firstRecordPosition) { (view, position) throws -> RecordIteration in
                guard position < segment.endPosition else { return .stop }
                if view.hasEventID, targets[view.device] == view.seq {
                    found.insert(view.device)
                    try body(view)
                }
                return .continue
            }
        }
    }

    /// This ledger's events `first … last` of `device`, in seq order, or nil when it does not
    /// hold every one of them (a sealed run's fork check seals them as one run, Schemas/
    /// encryption.md §11). Reads only the segments whose footer ranges meet those seqs.
    package func events(of device: DeviceID, from first: UInt64, through last: UInt64) throws -> EncodedRecords? {
        guard first > 0, first <= last, last <= versionVector[device] ?? 0 else { return nil }
        var events = EncodedRecords()
        var next = first
        for segment in segments where next <= last {
            let meets = segment.summary.deviceRanges.contains { $0.device == device && $0.firstSeq <= last && next <= $0.lastSeq }
            guard meets else { continue }
            try forEachRecord(from: segment.header.firstRecordPosition) { (view, position) throws -> RecordIteration in
                guard position < segment.endPosition, next <= last else { return .stop }
                if view.hasEventID, view.device == device, view.seq == next {
                    events.append(view)
                    next += 1
                }
                return .continue
            }
        }
        return next == last + 1 ? events : nil
    }
}
