import ArgumentParser
import SyncServer

extension Server {
    struct RevokeToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-token",
            abstract: "Revoke a user's tokens (all of them, or only --token).",
            discussion: """
                A running server refuses a revoked token at its next request. Exit codes: \
                0 revoked, 64 no such user or active token, 69 store unreachable.
                """)

        @Argument(help: "The user name (or a token: then only that token is revoked).") var name: String
        @OptionGroup var store: StoreOptions
        @Option(help: "Revoke only this token (default: every active token of the user).") var token: String?

        func run() async throws {
            let result = try await store.withAdministration { admin, now in
                try await admin.revokeTokens(user: name, tokenHash: token.map(TokenHash.hex), now: now)
            }
            print("revoked \(result.count) token\(result.count == 1 ? "" : "s") of user \(result.user)")
        }
    }
}
