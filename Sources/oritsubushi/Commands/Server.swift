import ArgumentParser
import LedgerCore
import SyncServer

struct Server: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the sync server and manage its users and tokens.",
        subcommands: [Serve.self, AddUser.self, RevokeToken.self])

    struct AddUser: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-user",
            abstract: "Create a user and print a new bearer token, alone on the last line.",
            discussion: "The token is shown only now; the server stores its SHA-256 hash only.")

        @Argument(help: "The user name (letters, digits, '.', '_', '-').") var name: String
        @Option(help: ArgumentHelp("The server's data directory.", valueName: "dir")) var data: String

        func run() throws {
            let clock = try Environment.clock()
            let token = try UserStore(dataDirectory: data).addUser(name, now: clock.nowMilliseconds())
            print("created user \(name); its token (shown once, keep it secret):")
            print(token)
        }
    }

    struct RevokeToken: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-token",
            abstract: "Revoke a user's tokens (all of them, or only --token).",
            discussion: "A running server refuses a revoked token at its next request.")

        @Argument(help: "The user name (or a token: then only that token is revoked).") var name: String
        @Option(help: ArgumentHelp("The server's data directory.", valueName: "dir")) var data: String
        @Option(help: "Revoke only this token (default: every active token of the user).") var token: String?

        func run() throws {
            let clock = try Environment.clock()
            let result = try UserStore(dataDirectory: data).revoke(user: name, token: token, now: clock.nowMilliseconds())
            print("revoked \(result.count) token\(result.count == 1 ? "" : "s") of user \(result.user)")
        }
    }
}
