import LedgerCore

/// Finds the conflicts of a set of events: for every station and field, each event that set a
/// value different from the winner's while being concurrent with the winner (CausalHistory).
///
/// The result depends only on the set of events, never on the order they arrived in, so every
/// replica holding the same events reports the same list.
///
/// Edits are kept flat, as 32-byte `Edit`s with memos interned in a `MemoTable`, in arrival
/// order with their station's slot beside them, and grouped by station (a counting sort) when
/// conflicts are collected: a merge feeds every edit of both ledgers through here, and
/// per-edit `String`s, optionals, dictionary lookups and then one growing array per station
/// (a cache miss on its header for nearly every edit) were most of its cost.
package struct ConflictDetector: Sendable {
    /// One station edit, as conflict detection needs it.
    struct Edit: Sendable, Equatable {
        var hlc: UInt64
        var device: UInt64
        var seq: UInt64
        /// The comp_date code, or `noDate` (never a valid code).
        var date: UInt32
        /// The memo's id in the `MemoTable`, or `noMemo`.
        var memo: UInt32

        static let noDate = UInt32.max
        static let noMemo = UInt32.max

        var id: EventID { EventID(device: DeviceID(rawValue: device), seq: seq) }

        /// The LWW order `(hlc, device, seq)`.
        @inline(__always)
        static func precedes(_ a: Edit, _ b: Edit) -> Bool {
            (a.hlc, a.device, a.seq) < (b.hlc, b.device, b.seq)
        }
    }

    private var slots = StationSlots()
    /// Each slot's station id.
    private var stationIDs: [UInt32] = []
    /// Every edit added: those up to the last collection grouped by station, the later ones
    /// in arrival order.
    private var edits: [Edit] = []
    /// The slots of the edits added since the last grouping (those before are grouped, and
    /// their slots follow from `groupStarts`).
    private var editSlots: [Int32] = []
    /// Where each slot's edits start in the grouped prefix of `edits` (`groupEditsByStation`).
    private var groupStarts: [Int] = []
    private var memos = MemoTable()
    private var seen: Set<EventID> = []
    package private(set) var history = CausalHistory()
    /// Only these stations are collected (nil: all).
    private let stations: StationBitmap?
    /// Whether to skip records already added. Off when the records come from one ledger's scan
    /// plus what is appended to it, which never repeat an id: the set costs a hash per event.
    private let deduplicates: Bool

    package init(stations: Set<UInt32>? = nil, deduplicates: Bool = true) {
        self.init(stations: stations.map(StationBitmap.init), deduplicates: deduplicates)
    }

    init(stations: StationBitmap?, deduplicates: Bool) {
        (self.stations, self.deduplicates) = (stations, deduplicates)
    }

    /// Makes room for about `edits` edits (up to 8M) at once: growing the arrays by doubling
    /// copied them into freshly faulted pages at every step (untouched capacity costs no memory).
    package mutating func reserve(_ edits: UInt64) {
        let count = Int(min(edits, 1 << 23))
        self.edits.reserveCapacity(count)
        editSlots.reserveCapacity(count)
    }

    private mutating func isNew(_ id: EventID) -> Bool {
        !deduplicates || seen.insert(id).inserted
    }

    @inline(__always)
    private mutating func append(_ edit: Edit, station: UInt32) {
        let slot = slots.slot(of: station) ?? newSlot(station)
        edits.append(edit)
        editSlots.append(slot)
    }

    private mutating func newSlot(_ station: UInt32) -> Int32 {
        let slot = Int32(stationIDs.count)
        stationIDs.append(station)
        slots.set(slot, for: station)
        return slot
    }

    /// Collects a record; duplicates (same id) are ignored.
    package mutating func add(_ view: RecordView) {
        // The fixed fields are read from the record's bytes directly (RecordLayout): `RecordView`'s
        // accessors are calls from this module, and a merge adds every edit of two ledgers.
        let base = view.base
        switch base.load(as: UInt8.self) {
        case RecordKind.stationEdit.rawValue:
            let body = base + RecordLayout.headerSize
            let station = UInt32(littleEndian: body.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
            if let stations, !stations.contains(station) { return }
            let device = UInt64(littleEndian: body.loadUnaligned(as: UInt64.self))
            let seq = UInt64(littleEndian: body.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            guard isNew(EventID(device: DeviceID(rawValue: device), seq: seq)) else { return }
            let flags = base.load(fromByteOffset: 1, as: UInt8.self)
            let memo = flags & RecordLayout.flagHasMemo != 0 ? memos.intern(view.memoBytes) : Edit.noMemo
            append(Edit(hlc: UInt64(littleEndian: body.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
                        device: device, seq: seq,
                        date: flags & RecordLayout.flagHasCompDate != 0
                            ? UInt32(littleEndian: body.loadUnaligned(fromByteOffset: 28, as: UInt32.self)) : Edit.noDate,
                        memo: memo),
                   station: station)
        case RecordKind.knowledgeMark.rawValue:
            if isNew(view.eventID) { history.add(view) }
        default:
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
            append(Edit(hlc: e.hlc.rawValue, device: e.id.device.rawValue, seq: e.id.seq,
                        date: e.compDate?.code ?? Edit.noDate, memo: e.memo.map { memos.intern($0) } ?? Edit.noMemo),
                   station: e.station)
        case .catalogVersion, .deviceName:
            return
        }
    }

    /// Every conflict, sorted by station, field and the loser's LWW order.
    package mutating func conflicts() -> [Conflict] {
        Array(conflictList())
    }

    /// The same, as a compact list that builds each `Conflict` (with its memo strings) only
    /// when it is read.
    package mutating func conflictList() -> ConflictList {
        collect(newSince: nil)
    }

    /// The conflicts with at least one side past `held` (a version vector taken before an
    /// append): the conflicts the appended events created (`LedgerMerger.apply`).
    package mutating func conflictList(newSince held: [DeviceID: UInt64], sideBySide: Bool = false) -> ConflictList {
        collect(newSince: HeldVector(held), sideBySide: sideBySide && SideBySide.isWorthwhile)
    }

    /// A version vector searched linearly (few devices: cheaper than hashing a `DeviceID`).
    private struct HeldVector {
        var entries: [(device: UInt64, seq: UInt64)]

        init(_ vector: [DeviceID: UInt64]) { entries = vector.map { ($0.key.rawValue, $0.value) } }

        @inline(__always)
        func isPast(_ edit: Edit) -> Bool {
            for entry in entries where entry.device == edit.device { return edit.seq > entry.seq }
            return true
        }
    }

    /// Stations in order, then fields in order, then each field's conflicts sorted by the
    /// loser: the order of `Conflict.<` without sorting the whole list at once. With
    /// `sideBySide`, the stations are split in two runs of about as many edits each, collected
    /// at once on two threads and joined (the same list).
    private mutating func collect(newSince held: HeldVector?, sideBySide: Bool = false) -> ConflictList {
        prepareToCollect()
        let order = stationIDs.indices.sorted { stationIDs[$0] < stationIDs[$1] }
        guard sideBySide, order.count > 1 else { return collect(order[...], newSince: held) }
        // The first slot past half of the edits ends the first run.
        var split = 0
        var count = 0
        while split < order.count - 1, count * 2 < edits.count {
            count += groupStarts[order[split] + 1] - groupStarts[order[split]]
            split += 1
        }
        let snapshot = self
        let (later, earlier) = SideBySide.run(
            background: { snapshot.collect(order[split...], newSince: held) },
            foreground: { collect(order[..<split], newSince: held) })
        var result = consume earlier
        result.append(contentsOf: later)
        return result
    }

    /// Groups the edits by station and seals the causal history, once per batch of additions.
    package mutating func prepareToCollect() {
        history.seal()
        if !editSlots.isEmpty || groupStarts.count != stationIDs.count + 1 { groupEditsByStation() }
    }

    /// The conflicts of the stations at `slots`, in that order.
    private func collect(_ slots: ArraySlice<Int>, newSince held: HeldVector?) -> ConflictList {
        var result = ConflictList(edits: edits, memos: memos)
        var losers: [Int32] = []
        edits.withUnsafeBufferPointer { grouped in
            for slot in slots {
                for field in [Conflict.Field.date, .memo] {
                    collect(station: stationIDs[slot], field: field, grouped, groupStarts[slot]..<groupStarts[slot + 1],
                            newSince: held, losers: &losers, into: &result)
                }
            }
        }
        return result
    }

    /// Groups `edits` by slot, each group in arrival order (a stable counting sort, so grouping
    /// again changes nothing), and sets where each slot's group starts
    /// (`groupStarts[slot]..<groupStarts[slot + 1]`). The grouped copy replaces the edits, so
    /// that the two are not both kept.
    private mutating func groupEditsByStation() {
        if let grouped = groupStarts.last, grouped > 0 {
            // Edits added after an earlier grouping: that prefix's slots, then theirs.
            var slots = [Int32]()
            slots.reserveCapacity(edits.count)
            for slot in 0..<(groupStarts.count - 1) {
                slots.append(contentsOf: [Int32](repeating: Int32(truncatingIfNeeded: slot), count: groupStarts[slot + 1] - groupStarts[slot]))
            }
            slots.append(contentsOf: editSlots)
            editSlots = slots
        }
        var starts = [Int](repeating: 0, count: stationIDs.count + 1)
        for slot in editSlots { starts[Int(slot) + 1] += 1 }
        for slot in stationIDs.indices { starts[slot + 1] += starts[slot] }
        var next = starts
        let grouped = [Edit](unsafeUninitializedCapacity: edits.count) { buffer, count in
            for (edit, slot) in zip(edits, editSlots) {
                (buffer.baseAddress! + next[Int(slot)]).initialize(to: edit)
                next[Int(slot)] += 1
            }
            count = edits.count
        }
        edits = grouped
        editSlots = []
        groupStarts = starts
    }

    private func collect(station: UInt32, field: Conflict.Field, _ all: UnsafeBufferPointer<Edit>, _ group: Range<Int>,
                         newSince held: HeldVector?, losers: inout [Int32], into result: inout ConflictList) {
        let isDate = field == .date
        @inline(__always) func sets(_ e: Edit) -> Bool { isDate ? e.date != Edit.noDate : e.memo != Edit.noMemo }
        // The winner: the greatest edit that sets the field.
        var winnerIndex = -1
        for i in group where sets(all[i]) {
            if winnerIndex < 0 || Edit.precedes(all[winnerIndex], all[i]) { winnerIndex = i }
        }
        guard winnerIndex >= 0 else { return }
        let winner = all[winnerIndex]
        let winnerID = winner.id
        let winnerValue = isDate ? winner.date : memos.valueClass(winner.memo)
        // With a new winner every loser is new; otherwise only new losers are.
        let everyLoser = held.map { $0.isPast(winner) } ?? true
        losers.removeAll(keepingCapacity: true)
        for i in group where i != winnerIndex {
            let edit = all[i]
            guard sets(edit) else { continue }
            let value = isDate ? edit.date : memos.valueClass(edit.memo)
            guard value != winnerValue, everyLoser || held!.isPast(edit),
                  history.areConcurrent(winnerID, edit.id) else { continue }
            losers.append(Int32(truncatingIfNeeded: i))
        }
        guard !losers.isEmpty else { return }
        losers.sort { Edit.precedes(all[Int($0)], all[Int($1)]) }
        result.append(station: station, field: field, winner: winnerIndex, losers: losers)
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
