/// A Gregorian calendar day, used to validate completion dates against "today".
package struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    package var year, month, day: Int

    package init(year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The day in Asia/Tokyo for a Unix time in milliseconds.
    ///
    /// Japan has observed no daylight saving time since 1951, so a fixed +09:00 offset is exact
    /// and needs no time-zone database on the machine.
    package init(tokyoDateOfUnixMilliseconds ms: Int64) {
        let days = Int((ms + 9 * 3_600_000).floorDivided(by: 86_400_000))
        self = CalendarDay(daysSinceUnixEpoch: days)
    }

    /// Converts a count of days since 1970-01-01 (proleptic Gregorian) to a calendar day.
    package init(daysSinceUnixEpoch: Int) {
        // Howard Hinnant's civil_from_days algorithm.
        let z = daysSinceUnixEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    package static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    package static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    package var description: String {
        "\(year.zeroPadded(4))-\(month.zeroPadded(2))-\(day.zeroPadded(2))"
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}

extension Int {
    package func zeroPadded(_ width: Int) -> String {
        let digits = String(self)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
