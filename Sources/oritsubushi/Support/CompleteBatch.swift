import Foundation
import LedgerCatalog
import LedgerCore

/// `complete --batch FILE`: lines `STATION<TAB>DATE[<TAB>MEMO]` (README "complete --batch").
/// Every line is checked first (its station resolved and known to the catalogue, its date and
/// memo valid, no station twice); the first bad line is refused (exit 65) naming its line number,
/// and nothing is written. Then all lines go to StationEditing.commit as one append with one
/// fsync. Empty lines are skipped, an empty MEMO column leaves the memo as it is; `last` on a line is the date of the line before it, or for
/// the first such line this device's previous complete/today.
struct CompleteBatch {
    var path: String
    var qualifiers: StationQualifierOptions

    func run(_ options: LedgerOptions, language: OutputLanguage = .en) throws {
        let text = try read()
        let today = try Environment.clock().today
        let ledger = try options.open()
        defer { ledger.close() }
        var resolver: StationResolver?
        let catalog = try CatalogStore.open(ledger)
        defer { catalog?.close() }
        var changes: [StationEditing.Change] = []
        var firstLine: [UInt32: Int] = [:]
        var last: CompletionDate?
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            let number = index + 1
            do {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.count == 2 || fields.count == 3 else {
                    throw LedgerError(.badInput, "expected STATION<TAB>DATE[<TAB>MEMO], found \(fields.count) field\(fields.count == 1 ? "" : "s")")
                }
                // An empty MEMO column is no memo (as an absent memo and "" are one value on import);
                // `memo STATION ""` clears one.
                let memo = fields.count == 3 && !fields[2].isEmpty ? fields[2] : nil
                try StationEditing.validate(memo: memo)
                if StationEditing.isLast(fields[1]), last == nil { last = try UIState.lastDate(in: ledger, today: today) }
                let date = try StationEditing.parse(fields[1], today: today, last: last)
                let id: UInt32
                if qualifiers.qualifiers.isEmpty, let given = try StationResolver.stationID(fields[0]) {
                    id = given
                } else {
                    if resolver == nil { resolver = try StationQualifierOptions.resolver(ledger) }
                    id = try resolver!.resolve(fields[0], qualifiers.qualifiers)
                }
                guard id > 0 else { throw LedgerError(.badInput, "station 0 is not a station id") }
                try catalog?.requireStation(id)
                if let earlier = firstLine[id] { throw LedgerError(.badInput, "station \(id) is already on line \(earlier)") }
                firstLine[id] = number
                if date.isCompleted { last = date }
                changes.append(StationEditing.Change(station: id, date: date, memo: memo))
            } catch let error as LedgerError where error.category == .badInput {
                throw LedgerError(.badInput, "line \(number) of \(displayName): \(error.message)")
            }
        }
        guard !changes.isEmpty else { throw LedgerError(.badInput, "\(displayName) lists no stations") }
        let changed = try StationEditing.commit(changes, ledger: ledger, language: language)
        print("\(changes.count) station\(changes.count == 1 ? "" : "s") in the batch: \(changed) recorded, \(changes.count - changed) unchanged")
    }

    private var displayName: String { path == "-" ? "standard input" : path }

    /// The whole batch as UTF-8 text, read before the ledger is opened.
    private func read() throws -> String {
        let bytes = path == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : try CatalogSupport.readInput(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw LedgerError(.badInput, "\(displayName) is not valid UTF-8")
        }
        return text
    }
}
