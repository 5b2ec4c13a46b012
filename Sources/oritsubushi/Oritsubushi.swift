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
        subcommands: [
            Init.self, Complete.self, Today.self, Uncomplete.self, Memo.self,
            History.self, Replay.self, Verify.self, Repair.self, Status.self, Generate.self,
            Merge.self, Conflicts.self, Sync.self, Reissue.self, Server.self, ServeAlias.self,
            CatalogCommand.self, StationCommand.self, Rebuild.self, Stats.self, ImportCommand.self, Export.self,
            Report.self,
            Nearby.self,
            MapCommand.self,
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
