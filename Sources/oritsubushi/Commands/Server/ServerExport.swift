import ArgumentParser
import LedgerCore
import SyncServer

extension Server {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a user's stored events as a ledger directory.",
            discussion: """
                DIR becomes a ledger of its own device ('export of NAME') holding every event and \
                device name of the user, which 'oritsubushi replay|verify --ledger DIR' and 'merge DIR' open \
                (run 'catalog import' there for station names). DIR must not exist or be empty. \
                A damaged user is refused (exit 65; 'server repair' first). Works while the \
                server runs. Exit codes: 0 written, 64 DIR not empty, 65 damaged, 66 no such \
                user, 69 store unreachable.
                """)

        @Argument(help: "The user name.") var name: String
        @Option(help: ArgumentHelp("The new ledger directory.", valueName: "dir")) var output: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try UserStore.validate(name: name)
            let fileSystem = PosixFileSystem()
            if fileSystem.fileExists(output) && !fileSystem.directoryExists(output) {
                throw LedgerError(.usage, "--output \(output) is a file; give a new or empty directory")
            }
            if fileSystem.directoryExists(output), try !fileSystem.listDirectory(output).isEmpty {
                throw LedgerError(.usage, "--output \(output) is not empty; give a new or empty directory")
            }
            let events = try await store.withAdministration { admin, now in
                try await admin.export(user: name, to: output, now: now)
            }
            print("exported user \(name): \(Plural.count(events, "event")) to \(output)")
        }
    }
}
