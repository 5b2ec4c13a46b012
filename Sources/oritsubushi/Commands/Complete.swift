import ArgumentParser
import LedgerCore

struct Complete: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record that a station was completed on a (fuzzy) date.",
        discussion: "DATE is YYYY-MM-DD, YYYY-MM, YYYY, unknown, today (in Japan) or none.")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The station id (s_id).") var station: UInt32
    @Argument(help: "The completion date.") var date: String
    @Option(help: "Also set the station's memo.") var memo: String?

    func run() throws {
        try StationEditing.record(options, station: station, compDate: { (today) throws(CompletionDateError) in
            try CompletionDate(parsing: date, today: today)
        }, memo: memo)
    }
}

struct Today: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record that a station was completed today (the date in Japan).")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The station id (s_id).") var station: UInt32

    func run() throws {
        try StationEditing.record(options, station: station, compDate: { today in
            .day(today.year, today.month, today.day)
        }, memo: nil)
    }
}

struct Uncomplete: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mark a station as not completed (its history and memo are kept).")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The station id (s_id).") var station: UInt32

    func run() throws {
        try StationEditing.record(options, station: station, compDate: { _ in .notCompleted }, memo: nil)
    }
}

struct Memo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set a station's memo (an empty TEXT clears it; at most 4 KiB of UTF-8).")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The station id (s_id).") var station: UInt32
    @Argument(help: "The memo text.") var text: String

    func run() throws {
        try StationEditing.record(options, station: station, compDate: { _ in nil }, memo: text)
    }
}
