import LedgerCore

/// The checks of a received event that need no ledger state, used by `MergeAdmission` (the one
/// admission of every path: Schemas/merge.md §2), so every path refuses in the same words.
package enum RecordChecks {
    /// Refuses an event (or device name) dated more than the clock lead ahead of `now`.
    /// `label` names the device as the refusal shows it ("'Phone' (0123…)"); it is built only
    /// for a refusal (formatting it for every accepted event was a fifth of a large merge).
    package static func checkClock(_ hlc: HybridTimestamp, device label: @autoclosure () -> String, now: Int64,
                                   options: MergeOptions) throws {
        if options.plausibility != nil, hlc.milliseconds < MergeOptions.Plausibility.earliestMilliseconds {
            throw LedgerError(.badInput, "device \(label()) sent an event dated \(hlc), before 2000-01-01, which no device's clock reads; nothing was written",
                              cause: .beforeEarliest)
        }
        guard case .refuseBeyond(let lead) = options.clockLead, hlc.milliseconds > now + lead else { return }
        let label = label()
        throw LedgerError(.conflict, "device \(label) sent events dated \(hlc), more than \(options.clockLead.limitText) ahead of this clock (\(HybridTimestamp(milliseconds: now))); fix the clock of device \(label), then run 'oritsubushi reissue' on it (or, if this clock is the wrong one, fix this one); nothing was written",
                          cause: .clockAhead)
    }

    /// Refuses an invalid station edit, or one for a station the catalogue does not know.
    package static func checkContent(_ record: LedgerRecord, options: MergeOptions) throws {
        guard case .stationEdit(let edit) = record else { return }
        do { try Ledger.validate(edit) } catch let error as LedgerError {
            throw LedgerError(.badInput, "event \(edit.id): \(error.message); nothing was written", cause: .invalidEdit(edit.id))
        }
        try checkDate(edit.compDate, event: edit.id, options: options)
        guard options.stations.isKnown(edit.station) else { throw unknownStation(edit.station, event: edit.id) }
    }

    /// The same for a station edit's encoded record (a local merge keeps records as bytes).
    package static func checkContent(_ view: RecordView, options: MergeOptions) throws {
        guard view.kind == .stationEdit else { return }
        // Checked on the bytes; the record path (decoding the record) only words a refusal.
        if !Ledger.isValid(view) || !isPlausible(view, options: options) {
            try checkContent(view.record, options: options)
        }
        guard options.stations.isKnown(view.station) else { throw unknownStation(view.station, event: view.eventID) }
    }

    /// Whether a station edit's date passes `checkDate` (read from its code, not decoded).
    private static func isPlausible(_ view: RecordView, options: MergeOptions) -> Bool {
        guard let latest = options.plausibility?.latestDay, view.hasCompDate else { return true }
        return (try? CompletionDate(code: view.compDateCode, today: latest)) != nil
    }

    /// Refuses a completion date after the plausibility's latest day (the date every client
    /// refuses to write: in the future in Japan).
    private static func checkDate(_ date: CompletionDate?, event: EventID, options: MergeOptions) throws {
        guard let latest = options.plausibility?.latestDay, let date else { return }
        do { _ = try CompletionDate(code: date.code, today: latest) } catch {
            throw LedgerError(.badInput, "event \(event): the completion date \(date) is in the future in Japan (today is \(latest) at the latest); nothing was written",
                              cause: .futureDate(event))
        }
    }

    /// The refusal of a station edit for a station the catalogue does not know.
    private static func unknownStation(_ station: UInt32, event: EventID) -> LedgerError {
        LedgerError(.badInput, "event \(event) is for station \(station), which the catalogue does not know; nothing was written",
                    cause: .unknownStation(event))
    }

    /// The refusal of one id twice in what was received, with two different contents (a
    /// malformed batch, not a fork: nothing held is involved).
    package static func differsWithin(_ id: EventID) -> LedgerError {
        LedgerError(.conflict, "event \(id) appears twice in what was received, with different content; the merge was refused and nothing was written",
                    cause: .differingWithin(id))
    }

    /// The refusal of one id held with two different contents.
    package static func differs(_ id: EventID) -> LedgerError {
        LedgerError(.conflict, "event \(id) exists on both sides with different content (a corrupt or forged replica); the merge was refused and nothing was written",
                    cause: .differingEvent(id))
    }
}
