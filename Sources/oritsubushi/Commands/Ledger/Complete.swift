import ArgumentParser
import LedgerCore

struct Complete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complete",
        abstract: "Record that a station was completed on a (fuzzy) date.",
        discussion: """
            STATION is an s_id, a station name (津 or 津駅) or its reading (つ); --operator, --line \
            and --pref narrow a name to one station. DATE is YYYY-MM-DD, YYYY-MM, YYYY, unknown, \
            today (in Japan), none, or last (the date of this device's previous complete or today). \
            --batch FILE (- for stdin) records many stations at once from lines \
            STATION<TAB>DATE[<TAB>MEMO]: every line is checked first, then all are appended \
            together; a bad line records nothing, and every bad line is listed (up to 20). A UTF-8 \
            byte order mark and CRLF line ends are accepted. --dry-run lists what would be recorded.
            """)

    @OptionGroup var options: LedgerOptions
    @OptionGroup var output: LanguageOptions
    @Argument(help: "The station: s_id, name (津 or 津駅) or reading in hiragana (つ).") var station: String?
    @Argument(help: "The completion date.") var date: String?
    @OptionGroup var qualifiers: StationQualifierOptions
    @Option(help: "Also set the station's memo.") var memo: String?
    @Option(help: ArgumentHelp("Record the stations listed in FILE (- for stdin), one STATION<TAB>DATE[<TAB>MEMO] a line.",
                               valueName: "file"))
    var batch: String?
    @Flag(help: "With --batch: check every line and print what would be recorded, writing nothing.") var dryRun = false

    func validate() throws {
        if batch != nil {
            guard station == nil, date == nil else { throw ValidationError("--batch takes no STATION or DATE argument") }
            guard memo == nil else { throw ValidationError("--memo cannot be used with --batch; give each memo as the third column") }
        } else {
            guard !dryRun else { throw ValidationError("--dry-run needs --batch FILE") }
            guard station != nil, date != nil else { throw ValidationError("give STATION and DATE, or --batch FILE") }
        }
    }

    func run() throws {
        if let batch {
            try CompleteBatchCommand(path: batch, qualifiers: qualifiers, dryRun: dryRun).run(options, language: output.language)
            return
        }
        try StationEditing.record(options, station: (station ?? "", qualifiers), date: .text(date ?? ""), memo: memo,
                                   language: output.language)
    }
}

struct Today: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Record that a station was completed today (the date in Japan).",
        discussion: "A station that is already completed is refused (use 'complete STATION today' to change its date) unless --force is given.")

    @OptionGroup var options: LedgerOptions
    @OptionGroup var output: LanguageOptions
    @OptionGroup var station: StationArgument
    @Flag(help: "Record today's date even when the station is already completed.") var force = false
    @Option(help: "Also set the station's memo.") var memo: String?

    func run() throws {
        try StationEditing.record(options, station: (station.station, station.qualifiers), date: .today, memo: memo, refusingCompleted: !force,
                                   language: output.language)
    }
}

struct Uncomplete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uncomplete",
        abstract: "Mark a station as not completed (its history and memo are kept).")

    @OptionGroup var options: LedgerOptions
    @OptionGroup var output: LanguageOptions
    @OptionGroup var station: StationArgument

    func run() throws {
        try StationEditing.record(options, station: (station.station, station.qualifiers), date: .notCompleted, memo: nil,
                                   language: output.language)
    }
}

struct Memo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memo",
        abstract: "Set a station's memo (an empty TEXT clears it; at most 4 KiB of UTF-8).")

    @OptionGroup var options: LedgerOptions
    @OptionGroup var output: LanguageOptions
    @OptionGroup var station: StationArgument
    @Argument(help: "The memo text.") var text: String

    func run() throws {
        try StationEditing.record(options, station: (station.station, station.qualifiers), date: .unchanged, memo: text,
                                   language: output.language)
    }
}
