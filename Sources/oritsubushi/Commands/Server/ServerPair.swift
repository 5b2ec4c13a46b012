import ArgumentParser
import LedgerCore
import SyncServer

extension Server {
    struct Pair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pair",
            abstract: "Print a one-time code that pairs a phone's web app with a user, and the URL that carries it.",
            discussion: """
                The phone opens the URL (or the app's 同期 screen takes the code) and exchanges the \
                code once, at POST /v1/pair, for a token of its own, named after the device and \
                listed by 'server users'; 'revoke-token' revokes it. The code is 8 characters of \
                Crockford base32 (40 random bits), shown as two groups of four; it is stored only \
                as a hash and works once, until --ttl runs out. Works while 'serve' runs. The URL's \
                base is --url: the address the phone reaches the server at (through a TLS proxy \
                outside this machine: docs/phone-app.md). Exit codes: 0, 64 no such user or \
                a bad --ttl, 69 store unreachable.
                """)

        @Argument(help: "The user name.") var name: String
        @OptionGroup var store: StoreOptions
        @OptionGroup var lifetime: CodeLifetimeOptions
        @Option(help: ArgumentHelp("The server's address as the phone reaches it.", valueName: "base-url"))
        var url = "http://127.0.0.1:8080"
        @Flag(help: "Print one JSON object: {\"user\", \"code\", \"url\", \"expires\"}.") var json = false

        func validate() throws {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw ValidationError("--url '\(url)' must start with http:// or https://")
            }
        }

        func run() async throws {
            try UserStore.validate(name: name)
            let code = PairingCode.random()
            let ttl = lifetime.milliseconds
            let expires = try await store.withAdministration { admin, now in
                try await admin.addPairingCode(user: name, code: code, now: now, expires: now + ttl)
                return now + ttl
            }
            let link = code.appLink(base: url)
            if json {
                print(try JSONOutput.line(["user": name, "code": code.grouped, "url": link,
                                           "expires": ISO8601.format(milliseconds: expires)]))
                return
            }
            print("pairing code for user \(name), valid once until \(ISO8601.format(milliseconds: expires)):")
            print(code.grouped)
            print(link)
        }
    }
}
