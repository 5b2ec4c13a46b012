import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// The rules of a user edit (`StationChange`) and of `complete --batch` (`BatchLines`), in
/// memory; CLITests drive the same paths through the binary.
@Suite struct StationChangeTests {
    static let today = CalendarDay(year: 2024, month: 5, day: 1)

    static func current(_ code: UInt32, memo: String = "") -> ProjectedStation {
        var row = ProjectedStation()
        row.compDate = code
        row.memo = memo
        return row
    }

    @Test func aDraftCarriesOnlyTheFieldsThatChange() throws {
        let change = StationChange(station: 7, date: .day(2013, 9, 1), memo: "south exit")
        #expect(try change.draft(against: Self.current(20130901, memo: "south exit")) == nil)
        #expect(try change.draft(against: Self.current(20130901)) == StationEditDraft(station: 7, memo: "south exit"))
        #expect(try change.draft(against: Self.current(2013_0000, memo: "south exit"))
                == StationEditDraft(station: 7, compDate: .day(2013, 9, 1)))
        // A memo-only change leaves the date alone; "" clears a memo.
        #expect(try StationChange(station: 7, memo: "").draft(against: Self.current(1, memo: "x")) == StationEditDraft(station: 7, memo: ""))
        #expect(try StationChange(station: 7, memo: "").draft(against: Self.current(1)) == nil)
    }

    @Test func todayWithoutForceRefusesACompletedStation() throws {
        let change = StationChange(station: 7, date: .day(2024, 5, 1))
        #expect(try change.draft(against: Self.current(0), refusingCompleted: true) != nil)
        let error = #expect(throws: LedgerError.self) { try change.draft(against: Self.current(1), refusingCompleted: true) }
        #expect(error?.category == .badInput && error?.message.contains("already completed") == true)
    }

    @Test func memoLimitAndDates() throws {
        try StationChange.validate(memo: String(repeating: "a", count: StationEdit.maximumMemoBytes))
        #expect(throws: LedgerError.self) { try StationChange.validate(memo: String(repeating: "あ", count: 1366)) }
        #expect(try StationChange.date("2013-09", today: Self.today, last: nil) == .month(2013, 9))
        #expect(try StationChange.date("LAST", today: Self.today, last: .year(2012)) == .year(2012))
        #expect(StationChange.isLast("Last") && !StationChange.isLast("lastly"))
        let future = #expect(throws: LedgerError.self) { try StationChange.date("2099", today: Self.today, last: nil) }
        #expect(future?.category == .badInput)
    }

    static var stations: BatchLines.Stations {
        BatchLines.Stations(
            resolve: { text in
                if let id = UInt32(text) { return id }
                if text == "津" { throw LedgerError(.badInput, "津 matches 3 stations") }
                return 300
            },
            requireKnown: { id in if id == 999 { throw LedgerError(.badInput, "station 999 is not in the catalogue") } })
    }

    static func batch(_ text: String, previous: CompletionDate? = .year(2010)) throws -> [StationChange] {
        try BatchLines.changes(text, source: "in.tsv", today: today, previousDate: {
            guard let previous else { throw LedgerError(.badInput, "there is no previous date for 'last'") }
            return previous
        }, stations: stations)
    }

    @Test func aBatchReadsEveryLineAndChainsLast() throws {
        let changes = try Self.batch("1\tlast\n\n2\t2013-09-01\tmemo\r\n3\tlast\t\n鳥羽\tnone\n4\tlast\n")
        #expect(changes == [
            StationChange(station: 1, date: .year(2010)),
            StationChange(station: 2, date: .day(2013, 9, 1), memo: "memo"),
            StationChange(station: 3, date: .day(2013, 9, 1)),  // an empty MEMO column is no memo
            StationChange(station: 300, date: .notCompleted),
            StationChange(station: 4, date: .day(2013, 9, 1)),  // `none` does not change `last`
        ])
    }

    @Test(arguments: [
        ("1\t2013\n2\n", "line 2 of in.tsv: expected STATION<TAB>DATE[<TAB>MEMO], found 1 field"),
        ("1\t2013\n2\t2013\tm\tx\n", "line 2 of in.tsv: expected STATION<TAB>DATE[<TAB>MEMO], found 4 fields"),
        ("1\t2013\n\n2\t2013-13\n", "line 3 of in.tsv: "),
        ("津\t2013\n", "line 1 of in.tsv: 津 matches 3 stations"),
        ("0\t2013\n", "line 1 of in.tsv: station 0 is not a station id"),
        ("999\t2013\n", "line 1 of in.tsv: station 999 is not in the catalogue"),
        ("5\t2013\n6\t2014\n5\t2015\n", "line 3 of in.tsv: station 5 is already on line 1"),
        ("\n \n", "in.tsv lists no stations"),
    ])
    func theFirstBadLineIsRefusedByNumber(text: String, message: String) throws {
        let error = #expect(throws: LedgerError.self) { try Self.batch(text) }
        #expect(error?.category == .badInput)
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }

    @Test func lastWithoutAPreviousDateIsRefusedOnItsLine() throws {
        // Line 1 gave a date, so `last` on line 2 is that date and the previous one is not asked for.
        #expect(try Self.batch("1\t2013\n2\tlast\n", previous: nil).map(\.date) == [.year(2013), .year(2013)])
        let first = #expect(throws: LedgerError.self) { try Self.batch("1\tlast\n", previous: nil) }
        #expect(first?.message == "line 1 of in.tsv: there is no previous date for 'last'")
    }
}
