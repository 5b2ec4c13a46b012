import ArgumentParser
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

@main
struct Oritsubushi: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oritsubushi",
        abstract: "An event-sourced ledger of 降りつぶし station completions.",
        discussion: """
            Every change to a station's completion is an append-only event in LZ4-compressed, \
            checksummed segment files. The ledger directory is --ledger, $ORITSUBUSHI_LEDGER, \
            or ./oritsubushi.ledger.

            Exit codes: 0 success, 64 usage, 65 bad data or corrupt ledger, 66 no ledger, \
            69 server unavailable, 74 I/O error, 75 ledger locked, 77 refused credentials.
            """,
        version: Version.text,
        // Every command stays top level (`oritsubushi complete …`, `oritsubushi server add-user …`);
        // the groups only order `--help`, and each group's files are in Commands/<Group>/.
        groupedSubcommands: [
            CommandGroup(name: "Ledger", subcommands: [
                Init.self, Complete.self, Today.self, Uncomplete.self, Memo.self, History.self, Replay.self,
                Verify.self, Repair.self, Status.self, Rebuild.self, Reidentify.self,
            ]),
            CommandGroup(name: "Stations", subcommands: [
                StationCommand.self, MapCommand.self, Nearby.self, Stats.self, CatalogCommand.self, Report.self,
            ]),
            CommandGroup(name: "Exchange", subcommands: [
                ImportCommand.self, Export.self, Merge.self, Conflicts.self, Sync.self, Reissue.self, Device.self,
                Encryption.self,
            ]),
            // `serve` (hidden) is the old spelling of `server serve`.
            CommandGroup(name: "Server", subcommands: [Server.self, ServeAlias.self]),
            CommandGroup(name: "Tools", subcommands: [Generate.self]),
        ])

    static func main() async {
        // Arguments that are not UTF-8 would be silently repaired by the Swift runtime;
        // refuse them instead of recording altered text.
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeRawBufferPointer(start: raw, count: strlen(raw))
            if !RecordStream.isValidUTF8(bytes) {
                ExitStatus.exit(running: LedgerError(.badInput, "argument \(index) is not valid UTF-8"))
            }
        }
        // A bad ORITSUBUSHI_SIDE_BY_SIDE is refused before any command runs (docs/ledger-cli.md
        // "Environment").
        if let problem = SideBySide.environmentProblem { ExitStatus.exit(running: LedgerError(.usage, problem)) }
        HelpTopic.refuseUnknown(Array(CommandLine.arguments.dropFirst()))
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            ExitStatus.exit(parsing: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            ExitStatus.exit(running: error)
        }
    }
}
