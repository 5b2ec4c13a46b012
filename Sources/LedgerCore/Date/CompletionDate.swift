/// The fuzzy date on which a station was completed (got on or off at), or "not completed".
///
/// The value keeps the original apps' integer encoding losslessly (Schemas/domain-rules.md §2):
///
/// | code       | meaning                         |
/// |------------|---------------------------------|
/// | `0`        | not completed                   |
/// | `1`        | completed, date unknown         |
/// | `YYYY0000` | completed in a year             |
/// | `YYYYMM00` | completed in a month            |
/// | `YYYYMMDD` | completed on an exact day       |
///
/// Numeric order of the code is chronological order, with less precise values first.
package enum CompletionDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    case notCompleted
    case unknown
    case year(Int)
    case month(Int, Int)
    case day(Int, Int, Int)

    /// The earliest year the original editors offer.
    package static let firstYear = 1900

    /// The integer code stored in `completions.comp_date` and in segment records.
    package var code: UInt32 {
        switch self {
        case .notCompleted: return 0
        case .unknown: return 1
        case .year(let y): return UInt32(y * 10000)
        case .month(let y, let m): return UInt32(y * 10000 + m * 100)
        case .day(let y, let m, let d): return UInt32(y * 10000 + m * 100 + d)
        }
    }

    package var isCompleted: Bool { self != .notCompleted }

    /// Decodes a stored code, checking that it is one of the values the encoding allows.
    ///
    /// `today` bounds the year and rejects future dates; pass `nil` to accept any year from 1900
    /// (used when decoding records that were validated when they were written).
    package init(code: UInt32, today: CalendarDay? = nil) throws(CompletionDateError) {
        switch code {
        case 0: self = .notCompleted; return
        case 1: self = .unknown; return
        default: break
        }
        let year = Int(code / 10000), month = Int(code / 100 % 100), day = Int(code % 100)
        guard year >= Self.firstYear else { throw .invalidCode(code) }
        if month == 0 {
            guard day == 0 else { throw .invalidCode(code) }
            self = .year(year)
        } else {
            guard month <= 12 else { throw .invalidCode(code) }
            if day == 0 {
                self = .month(year, month)
            } else {
                guard day <= CalendarDay.daysInMonth(year: year, month: month) else {
                    throw .invalidCode(code)
                }
                self = .day(year, month, day)
            }
        }
        if let today { try checkNotInFuture(today: today) }
    }

    /// Parses the text forms `2013-09-01`, `2013-09`, `2013`, `unknown`, `today` and `none`,
    /// and also a raw code such as `20130901`. Months and days take one or two digits
    /// (`2013-9-1`); full-width digits and dashes are read as ASCII ones (`DateText`).
    package init(parsing text: String, today: CalendarDay) throws(CompletionDateError) {
        let trimmed = DateText.normalizedDate(text)
        switch trimmed.lowercased() {
        case "none": self = .notCompleted; return
        case "unknown": self = .unknown; return
        case "today": self = .day(today.year, today.month, today.day); return
        default: break
        }
        var parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        // `Y-unknown` and `Y-M-unknown` (「2013年 月日不明」, 「2013年9月 日付不明」) name the same
        // precision as `Y` and `Y-M`: the unknown parts are the code's zeros.
        if parts.count == 2 || parts.count == 3, parts.last?.lowercased() == "unknown" { parts.removeLast() }
        guard !parts.isEmpty, parts.count <= 3,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) })
        else { throw .malformed(text) }
        if parts.count == 1 && parts[0].count == 8, let code = UInt32(parts[0]) {
            try self.init(code: code, today: today)
            return
        }
        guard parts[0].count == 4, parts.dropFirst().allSatisfy({ (1...2).contains($0.count) }),
              let year = Int(parts[0])
        else { throw .malformed(text) }
        let month = parts.count > 1 ? Int(parts[1])! : 0
        let day = parts.count > 2 ? Int(parts[2])! : 0
        guard year >= Self.firstYear else { throw .outOfRange(text) }
        guard parts.count < 2 || (1...12).contains(month) else { throw .outOfRange(text) }
        guard parts.count < 3 || (1...CalendarDay.daysInMonth(year: year, month: month)).contains(day)
        else { throw .outOfRange(text) }
        switch parts.count {
        case 1: self = .year(year)
        case 2: self = .month(year, month)
        default: self = .day(year, month, day)
        }
        try checkNotInFuture(today: today)
    }

    private func checkNotInFuture(today: CalendarDay) throws(CompletionDateError) {
        let inFuture: Bool
        switch self {
        case .notCompleted, .unknown: inFuture = false
        case .year(let y): inFuture = y > today.year
        case .month(let y, let m): inFuture = (y, m) > (today.year, today.month)
        case .day(let y, let m, let d): inFuture = CalendarDay(year: y, month: m, day: d) > today
        }
        if inFuture { throw .inFuture(description, today: today) }
    }

    /// The canonical text form, accepted back by `init(parsing:today:)`.
    package var description: String {
        switch self {
        case .notCompleted: return "none"
        case .unknown: return "unknown"
        case .year(let y): return y.zeroPadded(4)
        case .month(let y, let m): return "\(y.zeroPadded(4))-\(m.zeroPadded(2))"
        case .day(let y, let m, let d): return "\(y.zeroPadded(4))-\(m.zeroPadded(2))-\(d.zeroPadded(2))"
        }
    }

    package static func < (lhs: CompletionDate, rhs: CompletionDate) -> Bool { lhs.code < rhs.code }
}

/// Why a completion date was rejected.
package enum CompletionDateError: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    case outOfRange(String)
    case invalidCode(UInt32)
    case inFuture(String, today: CalendarDay)

    package var description: String {
        switch self {
        case .malformed(let text):
            return "'\(text)' is not a completion date; use YYYY-MM-DD, YYYY-MM, YYYY (or 2013年9月1日, 2013年9月, 2013年), unknown (不明), today or none"
        case .outOfRange(let text):
            return "'\(text)' is not a real date between \(CompletionDate.firstYear) and today"
        case .invalidCode(let code):
            return "\(code) is not a valid comp_date code (0, 1, YYYY0000, YYYYMM00 or a real YYYYMMDD from 1900)"
        case .inFuture(let text, let today):
            return "\(text) is in the future (today is \(today) in Japan)"
        }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
