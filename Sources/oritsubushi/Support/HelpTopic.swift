import ArgumentParser
import LedgerCore

/// `oritsubushi help COMMAND…`: ArgumentParser's help subcommand prints the top-level help and
/// exits 0 for a name it does not know, so a typo looks like an answer. A path of names that is
/// not a command is a usage error here instead (exit 64), before ArgumentParser sees it.
enum HelpTopic {
    static func refuseUnknown(_ arguments: [String]) {
        guard arguments.first == "help" else { return }
        var command: any ParsableCommand.Type = Oritsubushi.self
        var path: [String] = []
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == name }) else {
                let within = path.isEmpty ? "" : " of '\(path.joined(separator: " "))'"
                ExitStatus.exit(running: LedgerError(.usage, "'\(name)' is not a command\(within) (see 'oritsubushi help')"))
            }
            command = next
            path.append(name)
        }
    }
}
