/// A date filter of `station find --date`, with the iOS `CompletionDateGroup` rules
/// (Schemas/domain-rules.md §5): a year or a month covers every comp_date inside it, fuzzy or
/// not; the `unknown` forms pick exactly the code that says "this part is unknown".
///
/// | text            | comp_date codes         |
/// |-----------------|-------------------------|
/// | `Y`             | Y0000 … Y1231           |
/// | `Y-M`           | YYYYMM00 … YYYYMM31     |
/// | `Y-M-D`         | YYYYMMDD                |
/// | `unknown`       | 1                       |
/// | `Y-unknown`     | Y0000 (month unknown)   |
/// | `Y-M-unknown`   | YYYYMM00 (day unknown)  |
package struct CompletionDateGroup: Sendable, Equatable {
    /// The comp_date codes of the group; every one is completed (> 0).
    package let codes: ClosedRange<UInt32>

    package func contains(_ code: UInt32) -> Bool { codes.contains(code) }

    /// Parses the forms above. Months and days take one or two digits; the year four, from 1900;
    /// full-width digits and dashes read as ASCII ones (`DateText`).
    package init(parsing text: String) throws(CompletionDateGroupError) {
        let parts = DateText.normalizedDate(text).lowercased().split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        if parts == ["unknown"] { codes = 1...1; return }
        let unknownLast = parts.count > 1 && parts.last == "unknown"
        let numbers = unknownLast ? Array(parts.dropLast()) : parts
        guard (1...3).contains(numbers.count), !(unknownLast && numbers.count == 3),
              numbers[0].count == 4, numbers.dropFirst().allSatisfy({ (1...2).contains($0.count) }),
              numbers.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) })
        else { throw CompletionDateGroupError(text: text) }
        let year = UInt32(numbers[0])!
        let month = numbers.count > 1 ? UInt32(numbers[1])! : 0
        let day = numbers.count > 2 ? UInt32(numbers[2])! : 0
        guard year >= UInt32(CompletionDate.firstYear),
              numbers.count < 2 || (1...12).contains(month),
              numbers.count < 3 || (1...UInt32(CalendarDay.daysInMonth(year: Int(year), month: Int(month)))).contains(day)
        else { throw CompletionDateGroupError(text: text) }
        let base = year * 10000 + month * 100 + day
        switch (numbers.count, unknownLast) {
        case (1, false): codes = base...(base + 1231)
        case (2, false): codes = base...(base + 31)
        default: codes = base...base
        }
    }
}

/// Why `--date` was refused: one sentence naming the accepted forms.
package struct CompletionDateGroupError: Error, Equatable, CustomStringConvertible {
    package var text: String

    package var description: String {
        "--date '\(text)' is not a date group; use YYYY, YYYY-MM, YYYY-MM-DD, unknown, YYYY-unknown or YYYY-MM-unknown (year from 1900)"
    }
}
