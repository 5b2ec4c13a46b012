import ArgumentParser
import SyncServer

extension Server {
    struct AddUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-user",
            abstract: "Create a user and print a new bearer token, alone on the last line.",
            discussion: """
                The token is shown only now; the store keeps its SHA-256 hash only. With \
                --encrypted the account is end-to-end encrypted (Schemas/encryption.md): its \
                first device makes the key (key epoch 1), the server keeps only sealed records \
                and takes them as frames only, and every other device gets the key by a link \
                ('device link') or the recovery kit. Exit codes: 0 created, 64 a bad name or a \
                user that exists, 69 store unreachable.
                """)

        @Argument(help: "The user name (letters, digits, '.', '_', '-').") var name: String
        @Flag(help: "Make the account end-to-end encrypted: the server never reads its records.") var encrypted = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let kind = encrypted ? "end-to-end encrypted user" : "user"
            try await store.issueToken(for: name, heading: "created \(kind) \(name); its token (shown once, keep it secret):") {
                try await $0.addUser(name, tokenHash: $1, encrypted: encrypted, now: $2)
            }
        }
    }
}
