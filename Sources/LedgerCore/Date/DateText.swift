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
}
