/// Minimal, allocation-light ISO 8601 formatting and parsing in UTC (no Foundation formatters,
/// which are slow and differ between platforms).
package enum ISO8601 {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    package static func format(milliseconds ms: Int64) -> String {
        let days = Int(ms.floorDivided(by: 86_400_000))
        let msOfDay = Int(ms - Int64(days) * 86_400_000)
        let day = CalendarDay(daysSinceUnixEpoch: days)
        let h = msOfDay / 3_600_000, m = msOfDay / 60_000 % 60, s = msOfDay / 1000 % 60, f = msOfDay % 1000
        return "\(day)T\(h.zeroPadded(2)):\(m.zeroPadded(2)):\(s.zeroPadded(2)).\(f.zeroPadded(3))Z"
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z` or `±HH:MM`, or plain Unix
    /// seconds. A bare date or a time without offset is read as Asia/Tokyo time, the zone the
    /// original apps display.
    package static func parseMilliseconds(_ text: String) -> Int64? {
        if let seconds = Int64(text) { return seconds * 1000 }
        let chars = Array(text.utf8)
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= chars.count else { return nil }
            var v = 0
            for c in chars[i..<i + width] {
                guard (48...57).contains(c) else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += width
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
            return true
        }
        guard let y = number(4), expect(UInt8(ascii: "-")), let mo = number(2), expect(UInt8(ascii: "-")),
              let d = number(2), (1...12).contains(mo), (1...CalendarDay.daysInMonth(year: y, month: mo)).contains(d)
        else { return nil }
        var h = 0, mi = 0, s = 0, frac = 0
        var offsetMinutes = 9 * 60
        if i < chars.count {
            guard expect(UInt8(ascii: "T")) || expect(UInt8(ascii: " ")),
                  let hh = number(2), expect(UInt8(ascii: ":")), let mm = number(2), hh < 24, mm < 60
            else { return nil }
            h = hh; mi = mm
            if expect(UInt8(ascii: ":")) {
                guard let ss = number(2), ss < 60 else { return nil }
                s = ss
                if expect(UInt8(ascii: ".")) {
                    var digits = 0
                    while i < chars.count, (48...57).contains(chars[i]) {
                        if digits < 3 { frac = frac * 10 + Int(chars[i] - 48) }
                        digits += 1
                        i += 1
                    }
                    guard digits > 0 else { return nil }
                    for _ in digits..<3 where digits < 3 { frac *= 10 }
                }
            }
            if expect(UInt8(ascii: "Z")) {
                offsetMinutes = 0
            } else if i < chars.count, chars[i] == UInt8(ascii: "+") || chars[i] == UInt8(ascii: "-") {
                let sign = chars[i] == UInt8(ascii: "+") ? 1 : -1
                i += 1
                guard let oh = number(2) else { return nil }
                _ = expect(UInt8(ascii: ":"))
                guard let om = number(2) else { return nil }
                offsetMinutes = sign * (oh * 60 + om)
            }
        }
        guard i == chars.count else { return nil }
        let days = daysSinceUnixEpoch(year: y, month: mo, day: d)
        let seconds = Int64(days) * 86400 + Int64(h * 3600 + mi * 60 + s) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(frac)
    }

    /// Inverse of `CalendarDay(daysSinceUnixEpoch:)` (Hinnant's days_from_civil).
    package static func daysSinceUnixEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
