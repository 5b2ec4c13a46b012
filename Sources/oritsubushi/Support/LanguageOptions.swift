import ArgumentParser
import LedgerCore

extension OutputLanguage: ExpressibleByArgument {}

/// `--lang ja|en` for the commands that print human-readable dates or statistics (stats,
/// station show/find, history, replay, and the edit commands' echo). The flag wins, then `ORITSUBUSHI_LANG`, then `LANG`
/// (`ja…` → ja, anything else → en). JSON output ignores it.
struct LanguageOptions: ParsableArguments {
    @Option(name: .customLong("lang"), help: ArgumentHelp(
        "Language of human-readable output: ja or en (default: $ORITSUBUSHI_LANG, else ja when $LANG starts with ja, else en).",
        valueName: "ja|en"))
    var lang: OutputLanguage?

    func validate() throws {
        _ = try resolved()
    }

    var language: OutputLanguage { (try? resolved()) ?? .en }

    private func resolved() throws(ValidationError) -> OutputLanguage {
        if let lang { return lang }
        if let raw = Environment.variable("ORITSUBUSHI_LANG") {
            guard let language = OutputLanguage(rawValue: raw) else {
                throw ValidationError("ORITSUBUSHI_LANG='\(raw)' is not a language; use ja or en")
            }
            return language
        }
        return OutputLanguage.fromLocale(Environment.variable("LANG"))
    }
}
