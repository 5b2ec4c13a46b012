import LedgerCore

/// The completions projection in memory: one `ProjectedStation` per station that has events,
/// plus the log position and version vector it reflects.
///
/// Stations are found through `StationSlots`, so folding ten million events costs one array load
/// each.
package struct CompletionsProjection: Sendable {
    private var slots = StationSlots()
    package private(set) var ids: [UInt32] = []
    package private(set) var rows: [ProjectedStation] = []
    /// Rows changed since the projection was loaded (for an incremental save).
    private(set) var dirty: Set<Int32> = []
    /// Whether the stored file must be rewritten whole.
    var needsFullWrite = true
    /// The position the stored file reflects (`nil` when there is none).
    var storedPosition: UInt64?
    /// Why a stored projection file was set aside and the log folded from its start (unreadable,
    /// another ledger's, a checkpoint past the log); `nil` when the checkpoint was used or there
    /// was no file. Commands print it as a note.
    package internal(set) var discardedBecause: String?
    /// Set when the stored rows are read on demand (`ProjectionStore.load(_:lazy:)`): a
    /// station the projection does not hold yet is looked up in the file before it is folded.
    var loader: ProjectionRowLoader?

    /// The log position (record index) up to which records are folded.
    package internal(set) var position: UInt64 = 0
    /// Per-device high-water marks of the folded events.
    package internal(set) var versionVector: [DeviceID: UInt64] = [:]
    /// Catalogue versions recorded in the folded part of the log.
    package internal(set) var catalogVersions: Set<UInt32> = []

    package init() {}

    package var stationCount: Int { rows.count }

    /// The row of a station held in memory (in a lazily loaded projection, see `lookup`).
    package func row(_ station: UInt32) -> ProjectedStation? {
        slot(of: station).map { rows[Int($0)] }
    }

    /// The row of a station, reading it from the stored file first if the projection is lazy.
    package mutating func lookup(_ station: UInt32) throws -> ProjectedStation? {
        if slot(of: station) == nil, let loader, let stored = try loader.load(station) {
            insertLoaded(station, stored)
        }
        return row(station)
    }

    /// `(s_id, row)` pairs in `s_id` order.
    package func sortedRows() -> [(station: UInt32, row: ProjectedStation)] {
        // Sorting packed (id, slot) words is several times faster than sorting slots by a
        // closure that looks their ids up.
        ids.enumerated().map { UInt64($1) << 32 | UInt64($0) }.sorted().map {
            (UInt32(truncatingIfNeeded: $0 >> 32), rows[Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF)])
        }
    }

    @inline(__always)
    private func slot(of station: UInt32) -> Int32? { slots.slot(of: station) }

    @inline(__always)
    private mutating func slotCreating(_ station: UInt32) -> Int32 {
        if let s = slot(of: station) { return s }
        let s = Int32(rows.count)
        ids.append(station)
        rows.append(loader.flatMap { try? $0.load(station) } ?? ProjectedStation())
        slots.set(s, for: station)
        return s
    }

    /// Inserts a stored row (loading), without marking it dirty.
    mutating func insertLoaded(_ station: UInt32, _ row: ProjectedStation) {
        let s = slotCreating(station)
        rows[Int(s)] = row
    }

    /// Folds one record; `limit` drops events later than an `--as-of` time.
    @inline(__always)
    package mutating func apply(_ view: RecordView, trackDirty: Bool) {
        // One call for all of an edit's fields: `RecordView`'s accessors are not inlined
        // across modules (StationEditFields).
        if let edit = view.stationEdit {
            let s = slotCreating(edit.station)
            rows[Int(s)].apply(edit, memo: view)
            if trackDirty { dirty.insert(s) }
        } else if view.kind == .catalogVersion {
            catalogVersions.insert(view.catalogVersion)
        }
    }

    /// `apply(_:trackDirty:)` for a whole-log fold: a winning memo's bytes go to `memos`, and
    /// only each station's last winner becomes a `String` (`FoldMemoBuffer`).
    @inline(__always)
    private mutating func apply(_ view: RecordView, memos: inout FoldMemoBuffer) {
        if let edit = view.stationEdit {
            let s = slotCreating(edit.station)
            if rows[Int(s)].applyAllButMemoText(edit) { memos.set(Int(s), view.memoBytes) }
        } else if view.kind == .catalogVersion {
            catalogVersions.insert(view.catalogVersion)
        }
    }

    /// Sets the memos a whole-log fold kept as bytes.
    private mutating func setMemos(_ memos: FoldMemoBuffer) {
        memos.forEach { slot, memo in rows[slot].memo = memo }
    }

    /// Applies a materialised edit (used to plan imports and carry-overs on a working copy).
    package mutating func apply(_ edit: StationEdit) {
        let s = slotCreating(edit.station)
        rows[Int(s)].apply(edit)
        dirty.insert(s)
    }

    // MARK: - Folding from the log

    /// Folds every record past `position` (the incremental catch-up: nothing before the
    /// checkpoint is read).
    package mutating func catchUp(_ ledger: Ledger) throws {
        guard position < ledger.recordCount else {
            versionVector = ledger.versionVector
            return
        }
        let track = !needsFullWrite
        try ledger.forEachRecord(from: position) { view, _ in apply(view, trackDirty: track) }
        position = ledger.recordCount
        versionVector = ledger.versionVector
    }

    /// Folds events this process just appended, without reading them back: the newest segment
    /// would otherwise be decompressed again for a handful of records. Falls back to `catchUp`
    /// unless the projection was current right before the append.
    package mutating func applyAppended(_ edits: [StationEdit], since before: UInt64, ledger: Ledger) throws {
        guard position == before, before + UInt64(edits.count) == ledger.recordCount else {
            try catchUp(ledger)
            return
        }
        for edit in edits { apply(edit) }
        position = ledger.recordCount
        versionVector = ledger.versionVector
    }

    /// Folds the whole log from scratch; `progress` is called with (records done, records total).
    package static func fold(
        _ ledger: Ledger, asOf limit: HybridTimestamp? = nil,
        progress: ((UInt64, UInt64) -> Void)? = nil
    ) throws -> CompletionsProjection {
        var projection = CompletionsProjection()
        var memos = FoldMemoBuffer()
        let total = ledger.recordCount
        if let limit {
            try ledger.forEachRecord { view, _ in
                if view.hlc <= limit { projection.apply(view, memos: &memos) }
            }
        } else if let progress {
            var done: UInt64 = 0
            try ledger.forEachRecord { view, _ in
                projection.apply(view, memos: &memos)
                done += 1
                if done & 0xFFFF == 0 { progress(done, total) }
            }
            progress(total, total)
        } else {
            try ledger.forEachRecord { view, _ in projection.apply(view, memos: &memos) }
        }
        projection.setMemos(memos)
        projection.position = total
        projection.versionVector = ledger.versionVector
        projection.needsFullWrite = true
        return projection
    }

    /// Takes what a caller folded from its own scan of every record of `ledger` (a merge folds
    /// each record it reads and appends, via `apply(_:trackDirty:)`) as the projection at the
    /// log's end, like `fold`; it is saved whole.
    package mutating func adoptFold(of ledger: Ledger) {
        position = ledger.recordCount
        versionVector = ledger.versionVector
        needsFullWrite = true
    }

    mutating func markSaved() {
        dirty.removeAll()
        storedPosition = position
        needsFullWrite = false
    }

    func dirtyRows() -> [(station: UInt32, row: ProjectedStation)] {
        dirty.sorted().map { (ids[Int($0)], rows[Int($0)]) }
    }
}
