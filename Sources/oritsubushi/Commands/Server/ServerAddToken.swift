import ArgumentParser
import SyncServer

extension Server {
    struct AddToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-token",
            abstract: "Print a new bearer token for an existing user, alone on the last line.",
            discussion: """
                For a user who lost their token, has a new device, or had their tokens revoked. \
                The user's other tokens keep working unless revoked ('server revoke-token NAME \
                --token T'). The token is shown only now. Exit codes: 0 added, 64 no such user, \
                69 store unreachable.
                """)

        @Argument(help: "The user name.") var name: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.issueToken(for: name, heading: "added a token for user \(name) (shown once, keep it secret):") {
                try await $0.addToken(user: name, tokenHash: $1, now: $2)
            }
        }
    }
}
