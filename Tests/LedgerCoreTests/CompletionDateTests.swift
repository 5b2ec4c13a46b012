import Testing
@testable import LedgerCore

@Suite struct CompletionDateTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 22)

    @Test(arguments: [
        ("2013-09-01", 20130901 as UInt32),
        ("2013-09", 20130900),
        ("2013", 20130000),
        ("unknown", 1),
        ("none", 0),
        ("today", 20261122),
        ("TODAY", 20261122),
        (" 2013-09-01 ", 20130901),
        ("2000-02-29", 20000229),
        ("1900-01-01", 19000101),
        ("1900", 19000000),
        ("2026-11-22", 20261122),
        ("2026-11", 20261100),
        ("2026", 20260000),
        ("19870401", 19870401),
        ("20130900", 20130900),
        // As people type them (Schemas/domain-rules.md §4): unpadded, full-width digits and dashes.
        ("2013-9-1", 20130901),
        ("2013-9", 20130900),
        ("２０１３", 20130000),
        ("２０１３−０９−０１", 20130901),
        ("２０１３-09-01", 20130901),
        ("２０１３ー９ー１", 20130901),
        // The original apps' keywords (DateText.keywordForm; domain-rules.md §5).
        ("2013年9月1日", 20130901),
        ("２０１３年９月１日", 20130901),
        ("2013年9月", 20130900),
        ("2013年9月頃", 20130900),
        ("2013年9月 日付不明", 20130900),
        ("2013年", 20130000),
        ("2013年 月日不明", 20130000),
        ("不明", 1),
        ("年月日不明", 1),
        ("2013-unknown", 20130000),
        ("2013-9-unknown", 20130900),
    ])
    func parsesValidText(text: String, code: UInt32) throws {
        let date = try CompletionDate(parsing: text, today: Self.today)
        #expect(date.code == code)
        // The canonical text form parses back to the same value.
        #expect(try CompletionDate(parsing: date.description, today: Self.today) == date)
    }

    @Test(arguments: [
        "1900-02-29", "2001-02-29", "2013-02-30", "2013-04-31", "2013-13", "2013-00", "2013-09-00",
        "2013-00-01", "1899", "1899-12-31", "0000", "2026-11-23", "2026-12", "2027", "3000-01-01",
        "", "13-9-1", "2013/09/01", "2013-009-1", "2013-09-01-01", "yesterday", "２０１３／０９", "-2013",
        "20130230", "15", "20131301", "2013-09-01x",
        "2013年9月1日 不明", "2013年13月", "2013年2月30日", "2027年", "1年2月3日4時", "月", "unknown-unknown",
    ])
    func rejectsInvalidText(text: String) {
        #expect(throws: CompletionDateError.self) { try CompletionDate(parsing: text, today: Self.today) }
    }

    @Test func futureDatesNameToday() {
        #expect(throws: CompletionDateError.inFuture("2026-11-23", today: Self.today)) {
            try CompletionDate(parsing: "2026-11-23", today: Self.today)
        }
    }

    @Test(arguments: [0 as UInt32, 1, 19000000, 20130000, 20130900, 20130901, 20000229, 19001231])
    func validCodesRoundTrip(code: UInt32) throws {
        #expect(try CompletionDate(code: code).code == code)
    }

    @Test(arguments: [2 as UInt32, 15, 18999999, 19000001, 19001301, 20130230, 19000229, 20130001, 20131300, 99999999])
    func invalidCodesAreRejected(code: UInt32) {
        #expect(throws: CompletionDateError.self) { try CompletionDate(code: code) }
    }

    @Test func numericOrderIsChronologicalWithLessPreciseFirst() throws {
        let codes: [UInt32] = [0, 1, 20130000, 20130100, 20130101, 20130900, 20130901, 20140000]
        let dates = try codes.map { try CompletionDate(code: $0) }
        #expect(dates == dates.sorted())
    }

    @Test func tokyoDayChangesAtFifteenUTC() {
        // 2026-11-21T14:59:59.999Z is still the 21st in Tokyo; 15:00Z is the 22nd.
        let before = ISO8601.parseMilliseconds("2026-11-21T14:59:59.999Z")!
        #expect(CalendarDay(tokyoDateOfUnixMilliseconds: before) == CalendarDay(year: 2026, month: 11, day: 21))
        #expect(CalendarDay(tokyoDateOfUnixMilliseconds: before + 1) == CalendarDay(year: 2026, month: 11, day: 22))
    }

    @Test func leapYearRule() {
        #expect(CalendarDay.isLeapYear(2000))
        #expect(!CalendarDay.isLeapYear(1900))
        #expect(CalendarDay.isLeapYear(2024))
        #expect(!CalendarDay.isLeapYear(2023))
    }

    @Test(arguments: [0, 1, 59, 365, 10957, 11016, 20000, -1, -719468])
    func daysSinceEpochRoundTrip(days: Int) {
        let day = CalendarDay(daysSinceUnixEpoch: days)
        #expect(ISO8601.daysSinceUnixEpoch(year: day.year, month: day.month, day: day.day) == days)
    }
}
