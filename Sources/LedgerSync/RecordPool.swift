import LedgerCore

/// The records a repair may take events from: the source, unfinished quarantines and the
/// readable part of damaged segments, or the replicas a server's repair is given. Two copies of one
/// event must be identical (a sealed event's two copies under one epoch; `RepairableRecord`): the one rule of both stores' repairs (`LedgerRepair` on the files
/// store's ledgers, `PostgresStore.repair`), as `MergeAdmission` is of every merge.
///
/// A record stands for the events `eventID.seq … lastSeq` of its device: one, or a sealed run's
/// several (Schemas/encryption.md §3.5). What a repair restores is a **tiling** of the seqs it
/// needs by records that start where the previous ended: a run that reaches outside them (cut
/// otherwise than the log's) cannot be taken, as its other events are held already.
package struct RecordPool<Record: RepairableRecord> {
    /// The identity of every event some record stands for.
    private var covered = Set<EventID>()
    /// Records by the identity of their first event, longest first.
    private var starting: [EventID: [(record: Record, from: String)]] = [:]
    private(set) var names: [Record] = []

    package init() {}

    /// Adds `records`, read from `origin` (named in a refusal); an event already added from
    /// elsewhere must be identical.
    package mutating func add(_ records: [Record], from origin: String) throws {
        for record in records {
            guard let id = record.eventID else {
                if record.isDeviceName { names.append(record) }
                continue
            }
            if let other = starting[id]?.first(where: { $0.record.lastSeq == record.lastSeq }) {
                guard !other.record.contradicts(record) else { throw Self.differs(id, other.from, origin) }
                continue
            }
            for seq in id.seq...record.lastSeq { covered.insert(EventID(device: id.device, seq: seq)) }
            starting[id, default: []].append((record, origin))
            starting[id]!.sort { $0.record.lastSeq > $1.record.lastSeq }
        }
    }

    func requireSameContent(_ records: [Record], in origin: String) throws {
        for record in records {
            guard let id = record.eventID, let other = starting[id]?.first(where: { $0.record.lastSeq == record.lastSeq }) else { continue }
            guard !other.record.contradicts(record) else { throw Self.differs(id, other.from, origin) }
        }
    }

    /// Records tiling device `device`'s events from `seqs.lowerBound` for as long as the pool
    /// holds them without a gap and within `seqs`, in seq order, and the seq after the last.
    package func tiling(of device: DeviceID, seqs: ClosedRange<UInt64>) -> (records: [Record], next: UInt64) {
        var found: [Record] = []
        var next = seqs.lowerBound
        while next <= seqs.upperBound,
              let record = starting[EventID(device: device, seq: next)]?.first(where: { $0.record.lastSeq <= seqs.upperBound })?.record {
            found.append(record)
            next = record.lastSeq + 1
        }
        return (found, next)
    }

    /// Device `device`'s events `seqs`, in seq order; refuses, naming the missing seqs, if any
    /// is missing.
    func events(of device: DeviceID, seqs: ClosedRange<UInt64>, neededBy segment: String) throws -> [Record] {
        let (found, next) = tiling(of: device, seqs: seqs)
        guard next > seqs.upperBound else {
            var last = next
            while last < seqs.upperBound, !covered.contains(EventID(device: device, seq: last + 1)) { last += 1 }
            let range = last == next ? "seq \(next)" : "seqs \(next)–\(last)"
            throw LedgerError(.conflict, "cannot repair: \(segment) held device \(device)'s events \(range), which the source does not have; nothing was changed",
                              cause: .missingEvents)
        }
        return found
    }

    /// Device `device`'s events from the start of `seqs` for as long as they are held without a
    /// gap, in seq order (a repair accepting loss).
    func availableEvents(of device: DeviceID, seqs: ClosedRange<UInt64>) -> [Record] {
        tiling(of: device, seqs: seqs).records
    }

    /// The events past `held`, which must continue every device's seqs without a gap; events
    /// of a device that `lost` cuts are lost as well.
    func events(after held: [DeviceID: UInt64], lost: inout LostEvents) throws -> [Record] {
        var highest: [DeviceID: UInt64] = [:]
        for id in covered where id.seq > held[id.device] ?? 0 { highest[id.device] = max(highest[id.device] ?? 0, id.seq) }
        var result: [Record] = []
        for (device, last) in highest.sorted(by: { $0.key < $1.key }) {
            let first = (held[device] ?? 0) + 1
            // What comes at or after the device's first lost seq is lost with it.
            let cut = lost.ranges[device]?.lowerBound ?? .max
            if cut <= last { lost.add(device: device, seqs: max(cut, first)...last) }
            guard first < cut else { continue }
            let end = min(last, cut - 1)
            let (found, next) = tiling(of: device, seqs: first...end)
            guard next > end else {
                let found = covered.filter { $0.device == device && $0.seq > next }.map(\.seq).min() ?? next
                throw LedgerError(.conflict, "cannot repair: \(SeqGap(device: device, held: next - 1, found: found).message()), and the events between are in neither the ledger nor the source; nothing was changed")
            }
            result += found
        }
        return result
    }

    private static func differs(_ id: EventID, _ first: String, _ second: String) -> LedgerError {
        LedgerError(.conflict, "cannot repair: event \(id) differs between \(first) and \(second) (a corrupt or forged replica); nothing was changed")
    }
}
