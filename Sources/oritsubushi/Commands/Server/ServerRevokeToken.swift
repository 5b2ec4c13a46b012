import ArgumentParser
import SyncServer

extension Server {
    struct RevokeToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-token",
            abstract: "Revoke a user's tokens (all of them, only --token, or a paired phone's with --device).",
            discussion: """
                A running server refuses a revoked token at its next request. --device revokes the \
                tokens that pairing codes gave to the device of that name ('server users' lists \
                them), e.g. a lost phone's, and leaves the user's other tokens working. Exit \
                codes: 0 revoked, 64 no such user or active token, 69 store unreachable.
                """)

        @Argument(help: "The user name (or a token: then only that token is revoked).") var name: String
        @OptionGroup var store: StoreOptions
        @Option(help: "Revoke only this token (default: every active token of the user).") var token: String?
        @Option(help: ArgumentHelp("Revoke only the tokens paired to the device of this name.", valueName: "name")) var device: String?

        func validate() throws {
            if token != nil, device != nil { throw ValidationError("give --token or --device, not both") }
        }

        func run() async throws {
            let result = try await store.withAdministration { admin, now in
                try await admin.revokeTokens(user: name, tokenHash: token.map(TokenHash.hex), device: device, now: now)
            }
            print("revoked \(result.count) token\(result.count == 1 ? "" : "s") of user \(result.user)")
        }
    }
}
