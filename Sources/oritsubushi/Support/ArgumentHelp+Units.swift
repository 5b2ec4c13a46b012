import ArgumentParser

/// Help for an option that takes an amount: its value is shown as its unit in `--help`
/// (`--idle-timeout <seconds>`, `--max-user-bytes <bytes>`), so that the text need not repeat it.
extension ArgumentHelp {
    static func seconds(_ text: String) -> ArgumentHelp { ArgumentHelp(text, valueName: "seconds") }
    static func bytes(_ text: String) -> ArgumentHelp { ArgumentHelp(text, valueName: "bytes") }
}
