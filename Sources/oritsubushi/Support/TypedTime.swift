import Foundation
import LedgerCore

/// A time typed on the command line (`replay --since`, `--as-of`): ISO 8601
/// (without an offset: Japan time) or Unix seconds, as `ISO8601.parseMilliseconds` reads it,
/// after folding what a Japanese keyboard types instead. Digits and dashes fold as every typed
/// date's do (`DateText`: `２０２４−０１−０１`, ー for a hyphen); the other full-width forms
/// (`Ｔ`, `：`, `＋`) by NFKC; a trailing `JST` names the Japan time that no offset means already.
enum TypedTime {
    static func milliseconds(_ text: String) -> Int64? {
        var folded = DateText.normalized(text).precomposedStringWithCompatibilityMapping
        if folded.uppercased().hasSuffix("JST") {
            folded = String(folded.dropLast(3)).trimmingCharacters(in: .whitespaces)
        }
        return ISO8601.parseMilliseconds(folded)
    }
}
