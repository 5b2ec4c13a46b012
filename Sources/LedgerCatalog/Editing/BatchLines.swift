import LedgerCore

/// The lines of `complete --batch FILE` (docs/ledger-cli.md "Many stations at once"): `STATION<TAB>DATE` or
/// `STATION<TAB>DATE<TAB>MEMO`, UTF-8, blank lines skipped.
///
/// Every line is checked before anything is written: the field count, the memo, the date, the
/// station (resolved and known), and that no station comes twice. A bad line is refused (exit
/// 65) as `line N of SOURCE: …`, every bad line in one run (`BadLines`). A byte order mark at
/// the start and a CR ending a line are not part of the text (`TextInput`). An empty MEMO column is no memo (as an absent memo and ""
/// are one value on import; `memo STATION ""` clears one). `last` on a line is the date of the
/// line before it that completed a station, or, before any, this device's previous date.
package enum BatchLines {
    /// How the caller resolves a line's STATION and checks it against the catalogue.
    package struct Stations {
        /// The `s_id` a STATION column names (an id, or a name with the command's qualifiers).
        package var resolve: (String) throws -> UInt32
        /// Refuses an `s_id` the catalogue does not have.
        package var requireKnown: (UInt32) throws -> Void

        package init(resolve: @escaping (String) throws -> UInt32, requireKnown: @escaping (UInt32) throws -> Void) {
            (self.resolve, self.requireKnown) = (resolve, requireKnown)
        }
    }

    /// The changes `text` lists, in line order. `source` names the input in errors (a path or
    /// "standard input"); `previousDate` is asked at most once, for the first `last`.
    package static func changes(_ text: String, source: String, today: CalendarDay,
                                previousDate: () throws -> CompletionDate, stations: Stations) throws -> [StationChange] {
        var changes: [StationChange] = []
        var firstLine: [UInt32: Int] = [:]
        var last: CompletionDate?
        var bad = BadLines()
        let body = text.unicodeScalars.first == "\u{FEFF}" ? Substring(text.unicodeScalars.dropFirst()) : Substring(text)
        for (index, whole) in body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            guard !whole.allSatisfy(\.isWhitespace) else { continue }
            let line = whole.last == "\r" ? whole.dropLast() : whole
            let number = index + 1
            do {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.count == 2 || fields.count == 3 else {
                    throw LedgerError(.badInput, "expected STATION<TAB>DATE[<TAB>MEMO], found \(fields.count) field\(fields.count == 1 ? "" : "s")")
                }
                let memo = fields.count == 3 && !fields[2].isEmpty ? fields[2] : nil
                try StationChange.validate(memo: memo)
                if StationChange.isLast(fields[1]), last == nil { last = try previousDate() }
                let date = try StationChange.date(fields[1], today: today, last: last)
                let id = try stations.resolve(fields[0])
                guard id > 0 else { throw LedgerError(.badInput, "station 0 is not a station id") }
                try stations.requireKnown(id)
                if let earlier = firstLine[id] { throw LedgerError(.badInput, "station \(id) is already on line \(earlier)") }
                firstLine[id] = number
                if date.isCompleted { last = date }
                changes.append(StationChange(station: id, date: date, memo: memo))
            } catch let error as LedgerError where error.category == .badInput {
                bad.add(LedgerError(.badInput, "line \(number) of \(source): \(error.message)"))
            }
        }
        try bad.check(source: source)
        guard !changes.isEmpty else { throw LedgerError(.badInput, "\(source) lists no stations") }
        return changes
    }
}
