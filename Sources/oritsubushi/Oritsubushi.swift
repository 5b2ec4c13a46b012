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
            History.self, Replay.self, Verify.self, Status.self, Generate.self,
            Merge.self, Conflicts.self, Sync.self, Serve.self, Server.self,
            CatalogCommand.self, StationCommand.self, Rebuild.self, Stats.self, ImportCommand.self, Export.self,
        ])

    static func main() async {
        // Arguments that are not UTF-8 would be silently repaired by the Swift runtime;
        // refuse them instead of recording altered text.
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeRawBufferPointer(start: raw, count: strlen(raw))
            if !RecordStream.isValidUTF8(bytes) {
                CommandRunner.fail(LedgerError(.badInput, "argument \(index) is not valid UTF-8"))
            }
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            failOnOneLine(error)
        }
    }

    /// A parsing or validation error as one sentence, like every other error (exit 64), instead
    /// of ArgumentParser's message plus usage block. Help, version and bare exit codes keep
    /// ArgumentParser's handling.
    static func failOnOneLine(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        let text = message(for: error).split(separator: "\n").first.map(String.init) ?? ""
        guard code != .success, !text.isEmpty else { exit(withError: error) }
        Terminal.error("error: \(text) (see 'oritsubushi help')")
        Glibc.exit(code.rawValue)
    }
}
