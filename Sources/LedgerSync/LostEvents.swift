import LedgerCore

/// What a repair that accepts loss gives up (`server repair --accept-loss`), per device: from the
/// first seq that no source holds to the highest seq that was stored. A device's seqs cannot
/// skip (Schemas/merge.md §3), so the stored events after a lost one go with it; no replica can
/// bring them back later either, as a replica holds a device's seqs without gaps too.
package struct LostEvents: Sendable, Equatable {
    package private(set) var ranges: [DeviceID: ClosedRange<UInt64>] = [:]

    package init() {}

    package var isEmpty: Bool { ranges.isEmpty }
    package var count: UInt64 { ranges.values.reduce(0) { $0 + UInt64($1.count) } }

    /// Whether `id` comes at or after its device's first lost seq.
    package func cuts(_ id: EventID) -> Bool {
        guard let range = ranges[id.device] else { return false }
        return id.seq >= range.lowerBound
    }

    package mutating func add(device: DeviceID, seqs: ClosedRange<UInt64>) {
        let old = ranges[device]
        ranges[device] = min(old?.lowerBound ?? seqs.lowerBound, seqs.lowerBound)...max(old?.upperBound ?? seqs.upperBound, seqs.upperBound)
    }

    package mutating func add(_ id: EventID) { add(device: id.device, seqs: id.seq...id.seq) }

    /// "device D seqs 3–5; device E seq 9", devices in id order.
    package var description: String {
        ranges.sorted { $0.key < $1.key }.map { device, seqs in
            seqs.count == 1 ? "device \(device) seq \(seqs.lowerBound)" : "device \(device) seqs \(seqs.lowerBound)–\(seqs.upperBound)"
        }.joined(separator: "; ")
    }
}
