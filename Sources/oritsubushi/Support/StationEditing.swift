import ArgumentParser
import LedgerCatalog
import LedgerCore

/// The shared path of `complete` (one station or a batch), `today`, `uncomplete` and `memo`:
/// validate, compare with each station's current state in the projection, and append one event
/// only for the fields that change, all stations of a command in one append (one fsync).
///
/// Everything is validated before any file is touched: the arguments, then (with the ledger
/// locked) the station against the catalogue. Once a catalogue has been imported, an `s_id` not
/// in it is refused (exit 65); before any catalogue import every positive id is accepted, so a
/// ledger can be used (or filled by a merge) before its catalogue arrives. Disabled stations are
/// in the catalogue and stay editable by `s_id`. The no-op check reads the projection (its
/// checkpoint plus the few records after it), never the whole log, and the projection is saved
/// afterwards. A successful `complete`/`today` remembers its date for `last` (UIState).
enum StationEditing {
    /// The date a command gives.
    enum DateInput {
        /// DATE as typed: a completion date, `today`, `none`, or `last`.
        case text(String)
        case today
        case notCompleted
        /// The command changes only the memo.
        case unchanged
    }

    static func record(_ options: LedgerOptions, station: (station: String, qualifiers: StationQualifierOptions), date: DateInput, memo: String?,
                       refusingCompleted: Bool = false, language: OutputLanguage = .en) throws {
        try StationChange.validate(memo: memo)
        let today = try Environment.clock().today
        if case .text(let text) = date, !StationChange.isLast(text) { _ = try StationChange.date(text, today: today, last: nil) }
        let ledger = try options.open()
        defer { ledger.close() }
        let id = try station.qualifiers.resolve(station.station, in: ledger)
        guard id > 0 else { throw LedgerError(.badInput, "station 0 is not a station id") }
        try CatalogSupport.requireKnownStation(id, ledger: ledger)
        let wanted: CompletionDate?
        switch date {
        case .text(let text):
            let last = StationChange.isLast(text) ? try UIState.lastDate(in: ledger, today: today) : nil
            wanted = try StationChange.date(text, today: today, last: last)
        case .today: wanted = .day(today.year, today.month, today.day)
        case .notCompleted: wanted = .notCompleted
        case .unchanged: wanted = nil
        }
        try commit([StationChange(station: id, date: wanted, memo: memo)], ledger: ledger, refusingCompleted: refusingCompleted,
                   language: language)
    }

    /// Appends the changes that change something, in one append, prints one line per station,
    /// and remembers the last completed date given for `last`. Returns how many stations changed.
    /// The lines show dates in `language` (`--lang`); errors stay in English.
    /// With `dryRun`, nothing is appended or saved: each station that would change is printed
    /// with what would be recorded.
    @discardableResult
    static func commit(_ changes: [StationChange], ledger: Ledger, refusingCompleted: Bool = false,
                       language: OutputLanguage = .en, dryRun: Bool = false) throws -> Int {
        var projection = try ProjectionUpdater.load(ledger, lazy: true)
        let labels = StationLabel(ledger: ledger), words = Words(language)
        var drafts: [StationEditDraft] = []
        var unchanged: [UInt32: String] = [:]
        for change in changes {
            let current = try projection.lookup(change.station) ?? ProjectedStation()
            if let draft = try change.draft(against: current, refusingCompleted: refusingCompleted) {
                drafts.append(draft)
            } else {
                unchanged[change.station] = "\(labels.text(change.station)): " + words.unchanged(date: current.completionDate, memoEmpty: current.memo.isEmpty)
            }
        }
        if dryRun {
            let wanted = Dictionary(uniqueKeysWithValues: drafts.map { ($0.station, $0) })
            for change in changes {
                if let draft = wanted[change.station] { print(describe(draft, labels, words) + words.wouldBeRecorded) } else if let text = unchanged[change.station] { print(text) }
            }
            return drafts.count
        }
        let events = try append(projection: &projection, ledger: ledger) { drafts.isEmpty ? [] : try ledger.appendLocal(drafts) }
        var recorded = Dictionary(uniqueKeysWithValues: events.map { ($0.station, $0) })
        for change in changes {
            if let event = recorded.removeValue(forKey: change.station) { print(line(event, labels, words)) } else if let text = unchanged[change.station] { print(text) }
        }
        if let last = changes.last(where: { $0.date?.isCompleted == true })?.date { UIState.remember(last, in: ledger) }
        return events.count
    }

    /// Runs `append` (which appends local edits to `ledger`), brings `projection` past what it
    /// appended and saves it. Returns the appended events.
    static func append(projection: inout CompletionsProjection, ledger: Ledger, _ append: () throws -> [StationEdit]) throws -> [StationEdit] {
        let before = ledger.recordCount
        let events = try append()
        if !events.isEmpty {
            try projection.applyAppended(events, since: before, ledger: ledger)
            try CarryOverPlanner.settle(ledger, projection: &projection)  // an edit of a carry-over source
        }
        if events.isEmpty {
            try ProjectionStore.save(&projection, ledger: ledger)
        } else {
            ProjectionUpdater.saveAfterAppend(&projection, ledger: ledger)
        }
        return events
    }

    private static func line(_ event: StationEdit, _ labels: StationLabel, _ words: Words) -> String {
        describe(StationEditDraft(station: event.station, compDate: event.compDate, memo: event.memo), labels, words)
            + words.event(event.id.device, event.id.seq)
    }

    /// `201111  津  JR東海  紀勢本線: date 2013-09, memo set`: the station as `station find`
    /// names it (`StationLabel`) and what an edit records, in `words`' language.
    static func describe(_ draft: StationEditDraft, _ labels: StationLabel, _ words: Words) -> String {
        var parts: [String] = []
        if let d = draft.compDate { parts.append("\(words.date) \(d.label(words.language))") }
        if let m = draft.memo { parts.append(m.isEmpty ? words.memoCleared : words.memoSet) }
        return "\(labels.text(draft.station)): \(parts.joined(separator: words.listSeparator))"
    }
}
