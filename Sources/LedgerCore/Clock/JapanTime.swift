/// Every human-readable time: Japan time (Asia/Tokyo, UTC+9; no daylight saving time since
/// 1951, so the fixed offset is exact), as the apps show `update_date` (Schemas/domain-rules.md
/// §13): `2026/11/24 13:30:05 JST` in `ja`, `2026-11-24 13:30:05 JST` in `en`. JSON keeps UTC
/// ISO 8601 (`ISO8601.format`). `EventLineWriter` writes the same text byte by byte.
package enum JapanTime {
    package static let offsetMilliseconds: Int64 = 9 * 3_600_000

    package enum Precision: Sendable {
        case seconds, minutes
    }

    /// The date's separator in `language`: `/` as the apps write it, `-` as ISO 8601 does.
    package static func dateSeparator(_ language: OutputLanguage) -> String { language == .ja ? "/" : "-" }

    package static func text(milliseconds ms: Int64, _ language: OutputLanguage, precision: Precision = .seconds) -> String {
        let iso = ISO8601.format(milliseconds: ms + offsetMilliseconds)  // YYYY-MM-DDTHH:MM:SS.mmmZ
        let sep = dateSeparator(language)
        let date = iso.prefix(10).split(separator: "-").joined(separator: sep)
        let time = iso.dropFirst(11).prefix(precision == .seconds ? 8 : 5)
        return "\(date) \(time) JST"
    }

    package static func text(_ hlc: HybridTimestamp, _ language: OutputLanguage, precision: Precision = .seconds) -> String {
        text(milliseconds: hlc.milliseconds, language, precision: precision)
    }
}
