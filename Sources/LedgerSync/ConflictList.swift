import LedgerCore

/// Conflicts in the order of `Conflict.<`, stored compactly: each element becomes a `Conflict`
/// (with its memo strings) only when read. A merge of two unrelated histories reports hundreds of
/// thousands of new conflicts while the command prints a count and the first few.
package struct ConflictList: RandomAccessCollection, Sendable, Equatable {
    typealias Edit = ConflictDetector.Edit

    /// A station and field with its winner, shared by that field's conflicts.
    private struct Head: Sendable {
        var station: UInt32
        var field: Conflict.Field
        /// Indices in `edits`, as are the items' losers.
        var winner: Int32
    }

    private struct Item: Sendable {
        var head: Int32
        var loser: Int32
    }

    /// The detector's edits, shared, not copied: a conflict is 8 bytes here.
    private var edits: [Edit] = []
    private var heads: [Head] = []
    private var items: [Item] = []
    private var memos: MemoTable

    package init() { memos = MemoTable() }

    init(edits: [Edit], memos: MemoTable) {
        (self.edits, self.memos) = (edits, memos)
    }

    /// Adds one field's conflicts: `winner` and `losers` index the edits given at `init`.
    mutating func append(station: UInt32, field: Conflict.Field, winner: Int, losers: [Int32]) {
        let head = Int32(heads.count)
        heads.append(Head(station: station, field: field, winner: Int32(winner)))
        for loser in losers { items.append(Item(head: head, loser: loser)) }
    }

    /// Appends a list built from the same edits and memos, whose conflicts all sort after this
    /// list's (the detector collects station ranges side by side).
    mutating func append(contentsOf later: ConflictList) {
        let offset = Int32(heads.count)
        heads.append(contentsOf: later.heads)
        items.reserveCapacity(items.count + later.items.count)
        for item in later.items { items.append(Item(head: item.head + offset, loser: item.loser)) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { items.count }

    package subscript(position: Int) -> Conflict {
        let item = items[position]
        let head = heads[Int(item.head)]
        return Conflict(station: head.station, field: head.field,
                        winner: side(edits[Int(head.winner)], head.field), loser: side(edits[Int(item.loser)], head.field))
    }

    private func side(_ edit: Edit, _ field: Conflict.Field) -> Conflict.Side {
        Conflict.Side(id: edit.id, hlc: HybridTimestamp(rawValue: edit.hlc),
                      compDateCode: field == .date ? edit.date : nil,
                      memo: field == .memo ? memos.string(edit.memo) : nil)
    }

    package static func == (a: ConflictList, b: ConflictList) -> Bool {
        a.elementsEqual(b)
    }
}
