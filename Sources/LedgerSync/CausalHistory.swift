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
        /// (device, seq) sorted by device. A ledger knows few devices, so a binary search in
        /// a flat array beats hashing a DeviceID (conflict detection asks millions of times).
        var knowledge: [(DeviceID, UInt64)]

        func knows(_ device: DeviceID) -> UInt64 {
            var low = 0, high = knowledge.count
            while low < high {
                let mid = (low + high) / 2
                if knowledge[mid].0.rawValue < device.rawValue { low = mid + 1 } else { high = mid }
            }
            return low < knowledge.count && knowledge[low].0.rawValue == device.rawValue ? knowledge[low].1 : 0
        }
    }

    /// Each writing device's marks, as (device, marks) pairs searched linearly (few devices).
    private var marks: [(DeviceID, [Mark])] = []
    private var sorted = true

    private mutating func append(_ mark: Mark, of device: DeviceID) {
        if let i = marks.firstIndex(where: { $0.0 == device }) {
            marks[i].1.append(mark)
        } else {
            marks.append((device, [mark]))
        }
        sorted = false
    }

    package init() {}

    package mutating func add(_ mark: KnowledgeMark) {
        append(Mark(seq: mark.id.seq, knowledge: mark.knowledge.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
               of: mark.id.device)
    }

    package mutating func add(_ view: RecordView) {
        guard view.kind == .knowledgeMark else { return }
        var knowledge: [(DeviceID, UInt64)] = []
        knowledge.reserveCapacity(view.knowledgeCount)
        for i in 0..<view.knowledgeCount {
            let entry = view.knowledgeEntry(i)
            knowledge.append((entry.device, entry.seq))
        }
        // Encoded sorted by device (Schemas/segment-format.md §3.3a); sort anyway, cheaply.
        if !knowledge.isEmpty && !(1..<knowledge.count).allSatisfy({ knowledge[$0 - 1].0 < knowledge[$0].0 }) {
            knowledge.sort { $0.0 < $1.0 }
        }
        append(Mark(seq: view.seq, knowledge: knowledge), of: view.device)
    }

    /// Sorts each device's marks by seq; call once after adding, before querying.
    package mutating func seal() {
        guard !sorted else { return }
        for i in marks.indices { marks[i].1.sort { $0.seq < $1.seq } }
        sorted = true
    }

    /// Whether `writer` was written by a device that already held `event`.
    package func hasSeen(_ writer: EventID, _ event: EventID) -> Bool {
        precondition(sorted, "CausalHistory.seal() must run before queries")
        if writer.device.rawValue == event.device.rawValue { return event.seq < writer.seq }
        // Raw values: comparing `DeviceID`s here went through protocol witnesses.
        var slot = -1
        for i in marks.indices where marks[i].0.rawValue == writer.device.rawValue {
            slot = i
            break
        }
        guard slot >= 0 else { return false }
        let list = marks[slot].1
        // The latest mark strictly before the writer (binary search on seq).
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid].seq < writer.seq { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return false }
        return list[low - 1].knows(event.device) >= event.seq
    }

    /// Neither event was written with knowledge of the other.
    package func areConcurrent(_ a: EventID, _ b: EventID) -> Bool {
        !hasSeen(a, b) && !hasSeen(b, a)
    }
}
