import Testing
@testable import LedgerCore

@Suite struct ClockTests {
    @Test func nextTakesWallClockWhenItMovedOn() {
        let last = HybridTimestamp(milliseconds: 1000, counter: 5)
        #expect(HybridTimestamp.next(after: last, wallClock: 2000) == HybridTimestamp(milliseconds: 2000))
    }

    @Test func nextCountsWhenWallClockStandsStillOrFallsBack() {
        let last = HybridTimestamp(milliseconds: 5000, counter: 7)
        #expect(HybridTimestamp.next(after: last, wallClock: 5000) == HybridTimestamp(milliseconds: 5000, counter: 8))
        #expect(HybridTimestamp.next(after: last, wallClock: 1000) == HybridTimestamp(milliseconds: 5000, counter: 8))
    }

    @Test func fieldsSplitAsDocumented() {
        let t = HybridTimestamp(milliseconds: 1_378_040_000_123, counter: 9)
        #expect(t.rawValue == 1_378_040_000_123 << 16 | 9)
        #expect(t.unixSeconds == 1_378_040_000)
        #expect(t.description == "2013-09-01T12:53:20.123Z")
    }

    @Test(arguments: [
        ("2013-09-01T13:53:20.123Z", 1_378_043_600_123 as Int64),
        ("2013-09-01T22:53:20.123+09:00", 1_378_043_600_123),
        ("2013-09-01T22:53:20.123", 1_378_043_600_123),  // no offset: Japan time
        ("2013-09-01", 1_377_961_200_000),  // midnight in Japan
        ("1378040000", 1_378_040_000_000),
        ("2013-09-01T13:53Z", 1_378_043_580_000),
    ])
    func parsesISO8601(text: String, ms: Int64) {
        #expect(ISO8601.parseMilliseconds(text) == ms)
    }

    @Test(arguments: ["", "2013-13-01", "2013-02-30", "2013-09-01T25:00Z", "yesterday", "2013-09-01T10:00:00Zjunk"])
    func rejectsBadISO8601(text: String) {
        #expect(ISO8601.parseMilliseconds(text) == nil)
    }
}
