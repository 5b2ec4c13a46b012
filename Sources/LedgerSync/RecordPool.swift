import LedgerCore

/// The records a repair may take events from: the source, unfinished quarantines and the
/// readable part of damaged segments, or the replicas a server's repair is given. Two copies of one
/// event must be identical (a sealed event's two copies under one epoch; `RepairableRecord`): the one rule of both stores' repairs (`LedgerRepair` on the files
/// store's ledgers, `PostgresStore.repair`), as `MergeAdmission` is of every merge.
package struct RecordPool<Record: RepairableRecord> {
    private var events: [EventID: (record: Record, from: String)] = [:]
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
            if let other = events[id] {
                guard !other.record.contradicts(record) else { throw Self.differs(id, other.from, origin) }
            } else {
                events[id] = (record, origin)
            }
        }
    }

    func requireSameContent(_ records: [Record], in origin: String) throws {
        for record in records {
            guard let id = record.eventID, let other = events[id] else { continue }
            guard !other.record.contradicts(record) else { throw Self.differs(id, other.from, origin) }
        }
    }

    /// The event `id`, if any source holds it.
    package func event(_ id: EventID) -> Record? { events[id]?.record }

    /// Device `device`'s events `seqs`, in seq order; refuses, naming the missing seqs, if any
    /// is missing.
    func events(of device: DeviceID, seqs: ClosedRange<UInt64>, neededBy segment: String) throws -> [Record] {
        var found: [Record] = []
        found.reserveCapacity(seqs.count)
        for seq in seqs {
            guard let entry = events[EventID(device: device, seq: seq)] else {
                var last = seq
                while last < seqs.upperBound, events[EventID(device: device, seq: last + 1)] == nil { last += 1 }
                let range = last == seq ? "seq \(seq)" : "seqs \(seq)–\(last)"
                throw LedgerError(.conflict, "cannot repair: \(segment) held device \(device)'s events \(range), which the source does not have; nothing was changed",
                                  cause: .missingEvents)
            }
            found.append(entry.record)
        }
        return found
    }

    /// Device `device`'s events from the start of `seqs` for as long as they are held without a
    /// gap, in seq order (a repair accepting loss).
    func availableEvents(of device: DeviceID, seqs: ClosedRange<UInt64>) -> [Record] {
        var found: [Record] = []
        for seq in seqs {
            guard let entry = events[EventID(device: device, seq: seq)] else { break }
            found.append(entry.record)
        }
        return found
    }

    /// The events past `held`, which must continue every device's seqs without a gap; events
    /// of a device that `lost` cuts are lost as well.
    func events(after held: [DeviceID: UInt64], lost: inout LostEvents) throws -> [Record] {
        var byDevice: [DeviceID: [UInt64]] = [:]
        for id in events.keys where id.seq > held[id.device] ?? 0 { byDevice[id.device, default: []].append(id.seq) }
        var result: [Record] = []
        var continuity = SeqContinuity(held: held)
        for (device, seqs) in byDevice.sorted(by: { $0.key < $1.key }) {
            for seq in seqs.sorted() {
                if lost.cuts(EventID(device: device, seq: seq)) {
                    lost.add(EventID(device: device, seq: seq))
                    continue
                }
                if let gap = continuity.accept(device: device, seq: seq) {
                    throw LedgerError(.conflict, "cannot repair: \(gap.message()), and the events between are in neither the ledger nor the source; nothing was changed")
                }
                result.append(events[EventID(device: device, seq: seq)]!.record)
            }
        }
        return result
    }

    private static func differs(_ id: EventID, _ first: String, _ second: String) -> LedgerError {
        LedgerError(.conflict, "cannot repair: event \(id) differs between \(first) and \(second) (a corrupt or forged replica); nothing was changed")
    }
}
