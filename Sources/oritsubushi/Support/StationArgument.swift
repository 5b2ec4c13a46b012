import ArgumentParser
import LedgerCatalog
import LedgerCore

/// `--operator`, `--line` and `--pref`, shared by every command that takes a STATION.
struct StationQualifierOptions: ParsableArguments {
    @Option(name: .customLong("operator"), help: ArgumentHelp(
        "With a station name: only stations of this operator (o_id, part of its name, or a short name such as 近鉄 or JR東日本).",
        valueName: "text"))
    var operatorText: String?
    @Option(name: .customLong("line"), help: ArgumentHelp(
        "With a station name: only stations on this line (l_id or part of its name).", valueName: "text"))
    var lineText: String?
    @Option(name: .customLong("pref"), help: ArgumentHelp(
        "With a station name: only stations in this prefecture (code 1–47 or the start of its name).", valueName: "text"))
    var prefectureText: String?

    var qualifiers: StationQualifiers {
        StationQualifiers(operator: operatorText, line: lineText, prefecture: prefectureText)
    }

    /// The `s_id` that `text` names in this ledger (StationResolver). A bare `s_id` without
    /// qualifiers needs no catalogue, as before names existed; a name does.
    func resolve(_ text: String, in ledger: Ledger) throws -> UInt32 {
        if qualifiers.isEmpty, let id = try StationResolver.stationID(text) { return id }
        return try Self.resolver(ledger).resolve(text, qualifiers)
    }

    /// A resolver over this ledger's catalogue (exit 66 without one).
    static func resolver(_ ledger: Ledger) throws -> StationResolver {
        StationResolver(snapshot: try CatalogSupport.requireCatalog(ledger).loadSnapshot())
    }
}

/// A STATION argument: an `s_id`, a station name (`津`, `津駅`) or its reading (`つ`), with the
/// qualifiers that narrow a name to one station.
struct StationArgument: ParsableArguments {
    @Argument(help: "The station: s_id, name (津 or 津駅) or reading in hiragana (つ).") var station: String
    @OptionGroup var qualifiers: StationQualifierOptions

    func resolve(in ledger: Ledger) throws -> UInt32 {
        try qualifiers.resolve(station, in: ledger)
    }
}
