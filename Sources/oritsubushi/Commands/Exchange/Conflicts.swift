import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerSync

struct Conflicts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List concurrent edits that lost (both values, devices and times); 'resolve' settles them.",
        discussion: """
            A conflict is two edits of the same field (date or memo) of one station that set \
            different values while neither device had seen the other's edit. The winner is the \
            later (hlc, device, seq); the loser stays in the log. Recording the value you want \
            now (which has seen both) resolves the conflict, and 'conflicts resolve STATION' keeps the \
            current winner. Each line names the station as 'station find' does (s_id  name  operator \
            lines); times are Japan time. --json prints \
            {"count": N, "conflicts": [{"station", "name", "field", "winner", "loser"}]} where each side \
            has device, device_name, seq, hlc, time and value (plus comp_date for dates).
            """,
        subcommands: [ConflictsResolve.self])

    @OptionGroup var options: LedgerOptions
    @Flag(help: "Print JSON.") var json = false
    @Option(help: "Only this station (s_id, name or reading).") var station: String?
    @OptionGroup var qualifiers: StationQualifierOptions
    @OptionGroup var language: LanguageOptions

    func run() throws {
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let station = try self.station.map { try qualifiers.resolve($0, in: ledger) }
        let conflicts = try ledger.conflicts(stations: station.map { [$0] })
        let names = ledger.deviceNameTable
        let labels = StationLabel(ledger: ledger)
        let words = Words(language.language)
        var out = OutputBuffer()
        if json {
            out.writeLine(try JSONOutput.line(ConflictsOutput(conflicts, names: names, labels: labels)))
        } else if conflicts.isEmpty {
            out.writeLine(words.noConflicts)
        } else {
            let text = ConflictText(names: names, labels: labels, words: words)
            for conflict in conflicts { out.writeLine(text.line(conflict)) }
            out.writeLine(words.conflictCount(conflicts.count))
        }
        out.flush()
    }
}

/// How a conflict is printed by `conflicts`, `merge` and `sync`: the station by its label
/// (`StationLabel`), dates as labels and times in Japan time, in the language of `words`.
struct ConflictText {
    var names: [DeviceID: String]
    var labels: StationLabel
    var words: Words

    /// The value as JSON shows it: a date's canonical text, the memo.
    static func value(_ side: Conflict.Side, _ field: Conflict.Field) -> String {
        switch field {
        case .date:
            let code = side.compDateCode ?? 0
            return (try? CompletionDate(code: code))?.description ?? String(code)
        case .memo:
            return side.memo ?? ""
        }
    }

    private func value(_ side: Conflict.Side, _ field: Conflict.Field) -> String {
        guard field == .date, let date = try? CompletionDate(code: side.compDateCode ?? 0) else { return Self.value(side, field) }
        return date.label(words.language)
    }

    private func who(_ side: Conflict.Side) -> String {
        words.at("\(names[side.id.device] ?? side.id.device.description)#\(side.id.seq)", side.hlc)
    }

    /// The first few new conflicts, indented (a screenful); 'conflicts' lists them all.
    func printSome(_ conflicts: some RandomAccessCollection<Conflict>, limit: Int = 20) {
        for conflict in conflicts.prefix(limit) { print("  " + line(conflict)) }
        if conflicts.count > limit { print("  " + words.moreConflicts(conflicts.count - limit)) }
    }

    func line(_ c: Conflict) -> String {
        "\(labels.text(c.station))  \(words.conflictField(c.field.rawValue)): "
            + words.kept(JSONText.quoted(value(c.winner, c.field)), who(c.winner), over: JSONText.quoted(value(c.loser, c.field)), who(c.loser))
    }
}
