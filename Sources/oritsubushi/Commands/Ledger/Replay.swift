import ArgumentParser
import LedgerCore

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Print the log's events in log order, verifying every checksum on the way.")

    @OptionGroup var options: LedgerOptions
    @Option(help: "Only this station (s_id, name or reading).") var station: String?
    @OptionGroup var qualifiers: StationQualifierOptions
    @Option(help: "Only this device (name or 16-hex-digit id).") var device: String?
    @Option(help: "Only events at or after this time (ISO 8601; without an offset or with JST, Japan time; full-width digits are read too).")
    var since: String?
    @Option(help: "Output format: text or jsonl.") var format: EventFormat = .text
    @Flag(help: "Also print catalogue-version and device-name records.") var all = false
    @OptionGroup var language: LanguageOptions

    func validate() throws {
        if let since { _ = try Self.sinceTimestamp(since) }
    }

    /// `--since`: the first hlc of that millisecond.
    static func sinceTimestamp(_ text: String) throws(ValidationError) -> HybridTimestamp {
        guard let ms = TypedTime.milliseconds(text) else { throw ValidationError("--since '\(text)' is not an ISO 8601 time") }
        return HybridTimestamp(milliseconds: ms)
    }

    func run() throws {
        let sinceHLC = try since.map { text throws(ValidationError) in try Self.sinceTimestamp(text) }
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let station = try self.station.map { try qualifiers.resolve($0, in: ledger) }
        let deviceFilter = try device.map { try ledger.device(named: $0) }
        var writer = EventLineWriter(EventFormatter(format: format, deviceNames: ledger.deviceNameTable, language: language.language))
        var out = ByteSink()
        try ledger.forEachRecord { view, _ in
            if !all && view.kind != .stationEdit { return }
            if let station, view.kind != .stationEdit || view.station != station { return }
            if let deviceFilter, view.device != deviceFilter { return }
            if let sinceHLC, view.hlc < sinceHLC { return }
            try writer.write(view, into: &out)
            out.flushIfFull()
        }
        out.flush()
    }
}
