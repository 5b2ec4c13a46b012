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
        var winner: Edit
    }

    private struct Item: Sendable {
        var head: Int32
        var loser: Edit
    }

    private var heads: [Head] = []
    private var items: [Item] = []
    private var memos: MemoTable

    package init() { memos = MemoTable() }

    init(memos: MemoTable) { self.memos = memos }

    mutating func append(station: UInt32, field: Conflict.Field, winner: Edit, losers: [Edit]) {
        let head = Int32(heads.count)
        heads.append(Head(station: station, field: field, winner: winner))
        for loser in losers { items.append(Item(head: head, loser: loser)) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { items.count }

    package subscript(position: Int) -> Conflict {
        let item = items[position]
        let head = heads[Int(item.head)]
        return Conflict(station: head.station, field: head.field,
                        winner: side(head.winner, head.field), loser: side(item.loser, head.field))
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
