/// How typed date text is read before it is parsed, by every date on the command line
/// (`CompletionDate(parsing:)`, `CompletionDateGroup`) and by the phone app's date filter
/// (Sources/WebApp/app/js/dates.js `normalizeDateText`, held to this one by
/// Conformance/date-groups.jsonl; Schemas/domain-rules.md §1): a Japanese keyboard types
/// full-width digits (`２０１３`) and other dashes (`−`, `－`, `ー`) as readily as ASCII ones.
package enum DateText {
    /// Full-width digits become ASCII digits; hyphens, dashes, minus signs and the long-vowel
    /// mark become `-`; surrounding white space (an ideographic space too) is removed.
    package static func normalized(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xFF10...0xFF19: scalars.append(Unicode.Scalar(scalar.value - 0xFF10 + 0x30)!)
            case 0x2010...0x2015, 0x2212, 0xFE63, 0xFF0D, 0x30FC, 0xFF70: scalars.append("-")
            default: scalars.append(scalar)
            }
        }
        return String(scalars).trimmingSpaces
    }

    /// `normalized`, then the original apps' date keywords as the ASCII forms (`keywordForm`):
    /// how every completion date and date group is read (not times: `replay --since` refuses
    /// 「2026年」 rather than read it as a year).
    package static func normalizedDate(_ text: String) -> String {
        keywordForm(normalized(text))
    }

    /// The original apps' date keywords (Schemas/domain-rules.md §5), as the ASCII forms every
    /// parser reads: text with 年, 月, 日 or 不明 gives its positive integers (at most three)
    /// joined by `-`, and `unknown` for 不明 — 「2013年9月1日」 `2013-9-1`, 「2013年9月」 and
    /// 「2013年9月頃」 `2013-9`, 「2013年」 `2013`, 「2013年 月日不明」 `2013-unknown`,
    /// 「2013年9月 日付不明」 `2013-9-unknown`, 「不明」 and 「年月日不明」 `unknown`. A day with 不明 or
    /// more than three integers is left as typed, for the parser to refuse.
    static func keywordForm(_ text: String) -> String {
        guard text.contains(where: { "年月日不明".contains($0) }) else { return text }
        let unknown = text.contains("不明")
        let numbers = text.split(whereSeparator: { !$0.isASCIIDigit }).map(String.init)
        guard numbers.count <= 3, !(unknown && numbers.count == 3) else { return text }
        return (numbers + (unknown ? ["unknown"] : [])).joined(separator: "-")
    }
}
