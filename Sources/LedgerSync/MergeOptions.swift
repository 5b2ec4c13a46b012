import LedgerCore

/// How a merge checks and writes what it receives. The named modes below are the ones the
/// product uses; each says what it is for.
package struct MergeOptions: Sendable {
    /// How far ahead of the receiver's clock incoming events may be dated.
    package enum ClockLeadPolicy: Sendable, Equatable {
        /// Events (and device names) dated more than this far ahead are refused.
        case refuseBeyond(milliseconds: Int64)
        /// Any date is accepted: for events this ledger accepted once already.
        case acceptAny
    }

    /// A day: a device's clock may be off by a time zone, not by more.
    package static let defaultClockLead = ClockLeadPolicy.refuseBeyond(milliseconds: 86_400_000)

    package var clockLead = MergeOptions.defaultClockLead
    /// Records per durable batch (one fsync and one knowledge mark each); `generate` writes
    /// batches of this size too. (At 20,000, a 500,000-event merge spent 10 ms more on fsyncs.)
    package var batchSize = 100_000
    package var stations: any StationDirectory = AnyPositiveStation()
    /// Devices write a knowledge mark after a batch that brought station edits; the server,
    /// which edits nothing, does not.
    package var writesKnowledgeMarks = true
    /// Compare conflicts before and after to report the new ones (costs one scan).
    package var countsConflicts = true
    /// Whether a local merge may use a second core: read both logs at once, and find the
    /// conflicts while the batches are written. The result is the same either way.
    package var runsSideBySide = true
    /// Reading both logs at once keeps every station's edits of this ledger (it cannot know yet
    /// which stations the other brings): worth it from this many incoming events on.
    package var sideBySideMinimum: UInt64 = 10_000

    /// What every client refuses to write, checked where the server takes a push: no event dated
    /// before 2000-01-01 (no device's clock reads that), and no completion date after the day in
    /// Japan at the receiver's clock plus the clock lead (Schemas/merge.md §2).
    package struct Plausibility: Sendable, Equatable {
        /// 2000-01-01T00:00:00Z in Unix milliseconds.
        package static let earliestMilliseconds: Int64 = 946_684_800_000
        /// The latest completion day accepted.
        package var latestDay: CalendarDay
    }

    /// nil: no plausibility check (a device merging a peer trusts what that peer's clients wrote).
    package var plausibility: Plausibility?

    /// Merging from a peer device or the server: every check on, knowledge marks written.
    package init() {}

    /// The sync server taking a device's push at `now`: one batch, no knowledge marks (the server
    /// edits nothing), no conflict report (nobody reads it), and the plausibility checks.
    package static func acceptingPush(stations: any StationDirectory, now: Int64) -> MergeOptions {
        var options = MergeOptions()
        options.stations = stations
        let lead: Int64 = if case .refuseBeyond(let ms) = options.clockLead { ms } else { 0 }
        options.plausibility = Plausibility(latestDay: CalendarDay(tokyoDateOfUnixMilliseconds: now + lead))
        options.writesKnowledgeMarks = false
        options.countsConflicts = false
        options.batchSize = Int.max
        return options
    }

    /// A repair merging what its source holds beyond the re-appended segments: these events were
    /// accepted once already (no clock-lead check), and a knowledge mark could take a seq of the
    /// local device that the source is still to bring.
    package static var reappendingDuringRepair: MergeOptions {
        var options = MergeOptions()
        options.clockLead = .acceptAny
        options.writesKnowledgeMarks = false
        options.countsConflicts = false
        return options
    }
}

extension MergeOptions.ClockLeadPolicy {
    /// "a day", "6 hours", "90000 ms": the limit as the refusal states it.
    var limitText: String {
        guard case .refuseBeyond(let ms) = self else { return "no limit" }
        let units: [(Int64, String)] = [(86_400_000, "day"), (3_600_000, "hour"), (60_000, "minute"), (1_000, "second")]
        for (size, name) in units where ms >= size && ms % size == 0 {
            let count = ms / size
            return count == 1 ? "a \(name)" : "\(count) \(name)s"
        }
        return "\(ms) ms"
    }
}
