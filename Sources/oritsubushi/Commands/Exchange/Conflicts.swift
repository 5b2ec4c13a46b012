import ArgumentParser
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
            now (which has seen both) resolves the conflict. --json prints \
            {"count": N, "conflicts": [{"station", "field", "winner", "loser"}]} where each side \
            has device, device_name, seq, hlc, time and value (plus comp_date for dates). \
            'conflicts resolve STATION' keeps the current winner.
            """,
        subcommands: [ConflictsResolve.self])

    @OptionGroup var options: LedgerOptions
    @Flag(help: "Print JSON.") var json = false
    @Option(help: "Only this station (s_id, name or reading).") var station: String?
    @OptionGroup var qualifiers: StationQualifierOptions

    func run() throws {
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let station = try self.station.map { try qualifiers.resolve($0, in: ledger) }
        let conflicts = try ledger.conflicts(stations: station.map { [$0] })
        let names = ledger.deviceNameTable
        var out = OutputBuffer()
        if json {
            out.writeLine(try JSONOutput.line(ConflictsOutput(conflicts, names: names)))
        } else if conflicts.isEmpty {
            out.writeLine("no conflicts")
        } else {
            for conflict in conflicts { out.writeLine(ConflictText.line(conflict, names: names)) }
            out.writeLine("\(conflicts.count) conflicts")
        }
        out.flush()
    }
}

/// How a conflict is printed by `conflicts`, `merge` and `sync`.
enum ConflictText {
    static func value(_ side: Conflict.Side, _ field: Conflict.Field) -> String {
        switch field {
        case .date:
            let code = side.compDateCode ?? 0
            return (try? CompletionDate(code: code))?.description ?? String(code)
        case .memo:
            return side.memo ?? ""
        }
    }

    static func who(_ side: Conflict.Side, names: [DeviceID: String]) -> String {
        "\(names[side.id.device] ?? side.id.device.description)#\(side.id.seq) at \(side.hlc)"
    }

    /// The first few new conflicts, indented; 'conflicts' lists them all.
    static func printSome(_ conflicts: some RandomAccessCollection<Conflict>, names: [DeviceID: String], limit: Int = 20) {
        for conflict in conflicts.prefix(limit) { print("  " + line(conflict, names: names)) }
        if conflicts.count > limit {
            print("  … and \(conflicts.count - limit) more (see 'oritsubushi conflicts')")
        }
    }

    static func line(_ c: Conflict, names: [DeviceID: String]) -> String {
        "station \(c.station) \(c.field.rawValue): kept \(JSONText.quoted(value(c.winner, c.field))) (\(who(c.winner, names: names))) over \(JSONText.quoted(value(c.loser, c.field))) (\(who(c.loser, names: names)))"
    }
}
