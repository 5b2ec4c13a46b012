import Foundation

/// How typed station, operator, line and prefecture names are compared with the catalogue's:
/// people type what the catalogue writes in several interchangeable ways.
///
/// - full- and half-width forms fold by NFKC (`ＪＲ` = `JR`, `ｹ` = `ケ`), then Latin letters by case;
/// - ヶ, ケ and ヵ are one letter (the catalogue writes 駒ヶ根 but 牛ケ原);
/// - surrounding white space is ignored (one catalogue name ends in a space);
/// - for a STATION name (`StationResolver`), a trailing 駅 is optional (`津` = `津駅`); a search
///   (`StationTextMatch`) keeps it, as the apps' `LIKE` did.
package enum StationNameFolding {
    package static func fold(_ text: String) -> String {
        let normalized = text.precomposedStringWithCompatibilityMapping.lowercased()
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return String(normalized.map { $0 == "ヶ" || $0 == "ヵ" ? "ケ" : $0 })
    }

    /// A station name folded for matching, without its trailing 駅 (a name that is only 駅 keeps it).
    package static func foldStationName(_ name: String) -> String {
        var folded = fold(name)
        if folded.count > 1, folded.hasSuffix("駅") { folded.removeLast() }
        return folded
    }

    /// A reading folded for matching: katakana as hiragana too, so `コマガネ` and half-width
    /// `ｺﾏｶﾞﾈ` find こまがね.
    package static func foldReading(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in fold(text).unicodeScalars {
            let value = scalar.value
            scalars.append((0x30A1...0x30F6).contains(value) ? Unicode.Scalar(value - 0x60)! : scalar)
        }
        return String(scalars)
    }

    /// Whether typed text names an operator or a line: its id, or any part of its folded name
    /// (`--operator`, `--line`, `station find --by line`, the keys of `stats operators`).
    package static func names(_ text: String, id: Int64, name: String) -> Bool {
        let folded = fold(text)
        if let number = number(folded) { return number == id }
        return !folded.isEmpty && fold(name).contains(folded)
    }

    /// Whether `text` (folded) is a number: an id (`s_id`, `o_id`, `l_id`, prefecture code).
    package static func number(_ folded: String) -> Int64? {
        guard !folded.isEmpty, folded.allSatisfy(\.isASCII), folded.allSatisfy(\.isNumber) else { return nil }
        return Int64(folded)
    }
}
