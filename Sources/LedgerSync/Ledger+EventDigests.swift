import LedgerCore

extension Ledger {
    /// `EventDigest` of this ledger's event `(device, seq)` for each entry of `wanted` it holds
    /// (seq 0 and unheld seqs are left out). Reads only the segments whose footer ranges hold a
    /// wanted event — usually the newest one — each from its first record up to its end.
    package func eventDigests(at wanted: [DeviceID: UInt64]) throws -> [DeviceID: String] {
        let targets = wanted.filter { $0.value > 0 && $0.value <= versionVector[$0.key] ?? 0 }
        var found: [DeviceID: String] = [:]
        for segment in segments where found.count < targets.count {
            let holds = segment.summary.deviceRanges.contains { range in
                targets[range.device].map { range.firstSeq <= $0 && $0 <= range.lastSeq && found[range.device] == nil } ?? false
            }
            guard holds else { continue }
            try forEachRecord(from: segment.header.firstRecordPosition) { (view, position) throws -> RecordIteration in
                guard position < segment.endPosition else { return .stop }
                if view.hasEventID, targets[view.device] == view.seq { found[view.device] = EventDigest.hex(view) }
                return .continue
            }
        }
        return found
    }
}
