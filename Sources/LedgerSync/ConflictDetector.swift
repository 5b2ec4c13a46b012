import LedgerCore

/// Finds the conflicts of a set of events: for every station and field, each event that set a
/// value different from the winner's while being concurrent with the winner (CausalHistory).
///
/// The result depends only on the set of events, never on the order they arrived in, so every
/// replica holding the same events reports the same list.
package struct ConflictDetector: Sendable {
    private struct Entry: Sendable {
        var order: EventOrder
        var compDateCode: UInt32?
        var memo: String?
    }

    private var edits: [UInt32: [Entry]] = [:]
    private var seen: Set<EventID> = []
    package private(set) var history = CausalHistory()
    /// Only these stations are collected (nil: all).
    private let stations: Set<UInt32>?
    /// Whether to skip records already added. Off when the records come from one ledger's scan
    /// plus what is appended to it, which never repeat an id: the set costs a hash per event.
    private let deduplicates: Bool

    package init(stations: Set<UInt32>? = nil, deduplicates: Bool = true) {
        self.stations = stations
        self.deduplicates = deduplicates
    }

    private mutating func isNew(_ id: EventID) -> Bool {
        !deduplicates || seen.insert(id).inserted
    }

    /// Collects a record; duplicates (same id) are ignored.
    package mutating func add(_ view: RecordView) {
        switch view.kind {
        case .knowledgeMark:
            if isNew(view.eventID) { history.add(view) }
        case .stationEdit:
            if let stations, !stations.contains(view.station) { return }
            guard isNew(view.eventID) else { return }
            edits[view.station, default: []].append(Entry(
                order: EventOrder(view), compDateCode: view.hasCompDate ? view.compDateCode : nil, memo: view.memo))
        case .catalogVersion, .deviceName:
            return
        }
    }

    package mutating func add(_ record: LedgerRecord) {
        switch record {
        case .knowledgeMark(let m):
            if isNew(m.id) { history.add(m) }
        case .stationEdit(let e):
            if let stations, !stations.contains(e.station) { return }
            guard isNew(e.id) else { return }
            edits[e.station, default: []].append(Entry(order: EventOrder(e), compDateCode: e.compDate?.code, memo: e.memo))
        case .catalogVersion, .deviceName:
            return
        }
    }

    /// Every conflict, sorted by station, field and the loser's LWW order.
    package mutating func conflicts() -> [Conflict] {
        history.seal()
        // Stations in order, then fields in order, then each field's conflicts sorted by the
        // loser: the order of `Conflict.<` without sorting the whole list at once.
        var result: [Conflict] = []
        for station in edits.keys.sorted() {
            let entries = edits[station]!
            collect(station: station, field: .date, entries.filter { $0.compDateCode != nil }, into: &result)
            collect(station: station, field: .memo, entries.filter { $0.memo != nil }, into: &result)
        }
        return result
    }

    private func collect(station: UInt32, field: Conflict.Field, _ entries: [Entry], into result: inout [Conflict]) {
        guard entries.count > 1, let winner = entries.max(by: { $0.order < $1.order }) else { return }
        let winnerID = EventID(device: winner.order.device, seq: winner.order.seq)
        // Losers in LWW order (sorting indices by integer keys, not the entries themselves).
        let byOrder = entries.indices.sorted {
            let a = entries[$0].order, b = entries[$1].order
            return (a.hlc.rawValue, a.device.rawValue, a.seq) < (b.hlc.rawValue, b.device.rawValue, b.seq)
        }
        for index in byOrder where entries[index].order != winner.order {
            let entry = entries[index]
            let sameValue = field == .date ? entry.compDateCode == winner.compDateCode : entry.memo == winner.memo
            if sameValue { continue }
            let id = EventID(device: entry.order.device, seq: entry.order.seq)
            guard history.areConcurrent(winnerID, id) else { continue }
            result.append(Conflict(station: station, field: field,
                                   winner: side(winner, field), loser: side(entry, field)))
        }
    }

    private func side(_ e: Entry, _ field: Conflict.Field) -> Conflict.Side {
        Conflict.Side(id: EventID(device: e.order.device, seq: e.order.seq), hlc: e.order.hlc,
                      compDateCode: field == .date ? e.compDateCode : nil, memo: field == .memo ? e.memo : nil)
    }
}

extension Ledger {
    /// The conflicts of this ledger's whole event set (one full scan).
    package func conflicts(stations: Set<UInt32>? = nil) throws -> [Conflict] {
        var detector = ConflictDetector(stations: stations, deduplicates: false)
        try forEachRecord { view, _ in detector.add(view) }
        return detector.conflicts()
    }
}
