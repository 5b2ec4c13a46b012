import ArgumentParser
import LedgerCatalog
import LedgerCore

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print every event of one station, oldest first (in last-writer-wins order).",
        discussion: """
            The text format starts with a line naming the station as 'station find' does \
            (s_id  name  operator  lines); times are Japan time. jsonl prints only the events.
            """)

    @OptionGroup var options: LedgerOptions
    @OptionGroup var station: StationArgument
    @Option(help: "Output format: text or jsonl.") var format: EventFormat = .text
    @OptionGroup var language: LanguageOptions

    func run() throws {
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let station = try self.station.resolve(in: ledger)
        var found: [(EventOrder, String)] = []
        let formatter = EventFormatter(format: format, deviceNames: ledger.deviceNameTable, language: language.language)
        try ledger.forEachRecord { view, _ in
            guard view.kind == .stationEdit, view.station == station else { return }
            found.append((EventOrder(view), try formatter.line(view)))
        }
        var out = OutputBuffer()
        if format == .text { out.writeLine(StationLabel(ledger: ledger).text(station)) }
        for (_, line) in found.sorted(by: { $0.0 < $1.0 }) { out.writeLine(line) }
        out.flush()
    }
}
