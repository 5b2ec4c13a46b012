import LedgerCore

/// The "has seen" relation between events, computed from the event set alone.
///
/// Event W = (A, k) has seen event E = (D, s) iff D == A and s < k (a device sees its own
/// earlier events), or the latest knowledge mark of A with seq < k records knowledge[D] ≥ s.
/// Marks carry whole version vectors (everything the device held, transitively), so one mark
/// suffices. Every replica holding the same events answers the same way (Schemas/merge.md).
package struct CausalHistory: Sendable {
    private struct Mark: Sendable {
        var seq: UInt64
        var knowledge: [DeviceID: UInt64]
    }

    private var marks: [DeviceID: [Mark]] = [:]
    private var sorted = true

    package init() {}

    package mutating func add(_ mark: KnowledgeMark) {
        marks[mark.id.device, default: []].append(Mark(seq: mark.id.seq, knowledge: mark.knowledge))
        sorted = false
    }

    package mutating func add(_ view: RecordView) {
        guard view.kind == .knowledgeMark else { return }
        var knowledge: [DeviceID: UInt64] = [:]
        knowledge.reserveCapacity(view.knowledgeCount)
        for i in 0..<view.knowledgeCount {
            let entry = view.knowledgeEntry(i)
            knowledge[entry.device] = entry.seq
        }
        marks[view.device, default: []].append(Mark(seq: view.seq, knowledge: knowledge))
        sorted = false
    }

    /// Sorts each device's marks by seq; call once after adding, before querying.
    package mutating func seal() {
        guard !sorted else { return }
        for key in marks.keys { marks[key]!.sort { $0.seq < $1.seq } }
        sorted = true
    }

    /// Whether `writer` was written by a device that already held `event`.
    package func hasSeen(_ writer: EventID, _ event: EventID) -> Bool {
        precondition(sorted, "CausalHistory.seal() must run before queries")
        if writer.device == event.device { return event.seq < writer.seq }
        guard let list = marks[writer.device] else { return false }
        // The latest mark strictly before the writer (binary search on seq).
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid].seq < writer.seq { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return false }
        return (list[low - 1].knowledge[event.device] ?? 0) >= event.seq
    }

    /// Neither event was written with knowledge of the other.
    package func areConcurrent(_ a: EventID, _ b: EventID) -> Bool {
        !hasSeen(a, b) && !hasSeen(b, a)
    }
}
