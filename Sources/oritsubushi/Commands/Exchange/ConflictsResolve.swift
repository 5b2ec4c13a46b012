import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerSync

extension ConflictSettlement.Keep: ExpressibleByArgument {}

/// `conflicts resolve`: keeps the current winner of a station's conflicts by re-stating it in a
/// new edit that has seen both sides (Schemas/merge.md §6.1).
struct ConflictsResolve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Settle a station's conflicts by keeping the current winner.",
        discussion: """
            Appends one edit that re-states the winning value of the kept field(s) (--keep date, \
            memo or both; default both), even though it equals the current value. The edit has \
            seen both sides, so 'conflicts' and the report stop listing them here and, after a \
            merge or sync, on every device. With --keep date a memo conflict stays listed (and \
            the other way round). A station without a conflict in the kept fields exits 65. To \
            keep the losing value instead, record it with complete or memo. The line names the \
            station as 'station find' does (s_id  name  operator  lines).
            """)

    @OptionGroup var options: LedgerOptions
    @OptionGroup var station: StationArgument
    @Option(help: "Which conflicts to settle: date, memo or both.") var keep: ConflictSettlement.Keep = .both
    @OptionGroup var language: LanguageOptions

    func run() throws {
        let ledger = try options.open()
        defer { ledger.close() }
        let id = try station.resolve(in: ledger)
        var projection = try ProjectionUpdater.load(ledger, lazy: true)
        var settled: [Conflict] = []
        _ = try StationEditing.append(projection: &projection, ledger: ledger) {
            let (event, conflicts) = try ledger.settleConflicts(of: id, keep: keep)
            settled = conflicts
            return [event]
        }
        let fields = Set(settled.map(\.field)).sorted().map(\.rawValue)
        print(Words(language.language).resolved(StationLabel(ledger: ledger).text(id), fields: fields, count: settled.count))
    }
}
