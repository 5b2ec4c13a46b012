import LedgerCore

/// The events the crash workloads append: the content of local event `seq` is a pure function
/// of `seq`, so a checker that never saw the writer can tell a right event from a wrong one.
package enum HarnessEvents {
    package static let deviceName = "crash-harness"

    /// The draft that becomes local event `seq`. Mixes every date precision, memos with
    /// newlines, tabs, backslashes and emoji, no-date memo edits and, now and then, a memo of
    /// the full 4 KiB.
    package static func draft(seq: UInt64) -> StationEditDraft {
        let station = UInt32(truncatingIfNeeded: seq &* 2_654_435_761 % 9_973) + 1
        let year = 1990 + Int(seq % 36)
        let date: CompletionDate?
        switch seq % 7 {
        case 0: date = .day(year, Int(seq % 12) + 1, Int(seq % 28) + 1)
        case 1: date = .month(year, Int(seq % 12) + 1)
        case 2: date = .year(year)
        case 3: date = .unknown
        case 4: date = .notCompleted
        case 5: date = nil
        default: date = .day(2000, 2, 29)
        }
        var memo: String?
        if seq % 97 == 0 {
            memo = String(repeating: "駅", count: StationEdit.maximumMemoBytes / 3) + "x"
        } else if seq % 3 == 0 || date == nil {
            memo = "memo \(seq)\nline\t\\ 🚉"
        }
        return StationEditDraft(station: station, compDate: date, memo: memo,
                                origin: seq % 5 == 0 ? .import : .user)
    }

    /// Why `edit` is not local event `seq` as `draft(seq:)` describes it, or `nil` if it is.
    package static func mismatch(_ edit: StationEdit, device: DeviceID, seq: UInt64) -> String? {
        let expected = draft(seq: seq)
        if edit.id != EventID(device: device, seq: seq) { return "event \(edit.id) is where \(device)#\(seq) belongs" }
        if edit.station != expected.station || edit.compDate != expected.compDate
            || edit.memo != expected.memo || edit.origin != expected.origin {
            return "event \(edit.id) has the wrong content: \(edit)"
        }
        return nil
    }
}
