import Foundation
import LedgerCore

/// A time typed on the command line (`replay --since`, `--as-of`): ISO 8601
/// (without an offset: Japan time) or Unix seconds, as `ISO8601.parseMilliseconds` reads it,
/// after folding what a Japanese keyboard types instead. Full-width digits and punctuation
/// (`２０２４−０１−０１`) fold by NFKC, and a trailing `JST` names the Japan time that no
/// offset means already.
enum TypedTime {
    static func milliseconds(_ text: String) -> Int64? {
        var folded = text.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        // NFKC leaves U+2212 MINUS SIGN and ー (what a Japanese IME types for a hyphen) as they are.
        folded = folded.replacingOccurrences(of: "\u{2212}", with: "-").replacingOccurrences(of: "ー", with: "-")
        if folded.uppercased().hasSuffix("JST") {
            folded = String(folded.dropLast(3)).trimmingCharacters(in: .whitespaces)
        }
        return ISO8601.parseMilliseconds(folded)
    }
}
