import LedgerCatalog
import LedgerCore

/// `catalog status --json`: one object (docs/ledger-cli.md, "catalog status --json"); `JSONOutput` writes it.
/// `version` and `source` are null without a catalogue; `log_version` is the newest catalogue
/// version the log refers to (null when it has none), `behind` whether it is newer than `version`.
struct CatalogStatusOutput: Encodable {
    @NullWhenAbsent var version: Int64?
    @NullWhenAbsent var source: String?
    var stations = 0, stationsEnabled = 0
    var lines = 0, linesEnabled = 0
    var operators = 0, operatorsEnabled = 0
    @NullWhenAbsent var logVersion: UInt32?
    var behind: Bool

    enum CodingKeys: String, CodingKey {
        case version, source, stations, stationsEnabled = "stations_enabled", lines, linesEnabled = "lines_enabled"
        case operators, operatorsEnabled = "operators_enabled", logVersion = "log_version", behind
    }

    init(snapshot: CatalogSnapshot?, source: CatalogSource, check: CatalogVersionCheck) {
        logVersion = check.logVersion
        behind = check.isBehind
        guard let snapshot else { return }
        version = snapshot.version
        self.source = source.description
        stations = snapshot.stations.count
        stationsEnabled = snapshot.stations.filter(\.enabled).count
        lines = snapshot.lines.count
        linesEnabled = snapshot.lines.filter(\.enabled).count
        operators = snapshot.operators.count
        operatorsEnabled = snapshot.operators.filter(\.enabled).count
    }

    /// The human-readable form.
    var text: String {
        var out: [String] = []
        if let version, let source {
            out.append("catalogue \(version) (\(source))")
            out.append("stations   \(stationsEnabled) enabled of \(stations)")
            out.append("lines      \(linesEnabled) enabled of \(lines)")
            out.append("operators  \(operatorsEnabled) enabled of \(operators)")
        } else {
            out.append("no catalogue; import one with `oritsubushi catalog import`")
        }
        out.append("log refers to catalogue \(logVersion.map(String.init) ?? "none")")
        return out.joined(separator: "\n")
    }
}
