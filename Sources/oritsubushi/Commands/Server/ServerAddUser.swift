import ArgumentParser
import SyncServer

extension Server {
    struct AddUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-user",
            abstract: "Create a user and print a new bearer token, alone on the last line.",
            discussion: """
                The token is shown only now; the store keeps its SHA-256 hash only. Exit codes: \
                0 created, 64 a bad name or a user that exists, 69 store unreachable.
                """)

        @Argument(help: "The user name (letters, digits, '.', '_', '-').") var name: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.issueToken(for: name, heading: "created user \(name); its token (shown once, keep it secret):") {
                try await $0.addUser(name, tokenHash: $1, now: $2)
            }
        }
    }
}
