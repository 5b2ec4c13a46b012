/// The language of human-readable output (`--lang ja|en`). JSON and JSON Lines never depend on
/// it. `ja` speaks as the original apps do (dates 2013年9月1日, statistics 「N駅中 M駅 R.r%」);
/// `en` is the tool's own wording.
package enum OutputLanguage: String, Sendable, CaseIterable {
    case ja, en

    /// The default when neither `--lang` nor `ORITSUBUSHI_LANG` is given: `ja` when `LANG` starts
    /// with "ja" (ja_JP.UTF-8, ja), else `en`.
    package static func fromLocale(_ lang: String?) -> OutputLanguage {
        (lang ?? "").hasPrefix("ja") ? .ja : .en
    }
}
