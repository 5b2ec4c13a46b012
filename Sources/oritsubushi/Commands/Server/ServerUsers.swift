import ArgumentParser
import LedgerCore
import SyncServer

extension Server {
    struct Users: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "users",
            abstract: "List every user: tokens (active/revoked), devices, events, last push and pull.",
            discussion: """
                One line per user, sorted by name, then one indented line per token: when it was \
                made and, for a token a phone got by pairing ('server pair'), its device name. \
                An end-to-end encrypted account says so, with its key epoch. \
                --json prints one object: {"users": [{"name", "active_tokens", "revoked_tokens", \
                "devices", "events", "last_push", "last_pull", "tokens": [{"created", "device", \
                "revoked"}], "encryption": {"epoch"} or null for a plaintext account}]}, \
                times in ISO 8601 UTC or null when never (the files store records \
                them at most every few seconds per user, so they may lag). Works while the server \
                runs. Exit codes: 0, 69 store unreachable.
                """)

        @OptionGroup var store: StoreOptions
        @Flag(help: "Print one JSON object.") var json = false

        func run() async throws {
            let users = try await store.withAdministration { admin, _ in try await admin.users() }
            if json {
                print(try JSONOutput.line(["users": users.map(UserLine.init)]))
                return
            }
            if users.isEmpty { print("no users") }
            for user in users {
                let line = UserLine(user)
                let encryption = user.encryptionEpoch.map { "; end-to-end encrypted, key epoch \($0)" } ?? ""
                print("\(user.name)\(encryption): tokens \(user.activeTokens) active, \(user.revokedTokens) revoked; \(Plural.count(user.devices, "device")); \(Plural.count(user.events, "event")); last push \(line.lastPush ?? "never"); last pull \(line.lastPull ?? "never")")
                for token in line.tokens {
                    let device = token.device.map { ", device \(JSONText.quoted($0))" } ?? ""
                    print("  token made \(token.created)\(device)\(token.revoked ? ", revoked" : "")")
                }
            }
        }
    }

    /// One user in `server users --json`: nil times are written as null, not left out.
    struct UserLine: Encodable {
        var name: String
        var activeTokens, revokedTokens, devices: Int
        var events: UInt64
        @NullWhenAbsent var lastPush: String?
        @NullWhenAbsent var lastPull: String?
        var tokens: [TokenLine]
        /// `{"epoch": E}` for an end-to-end encrypted account, null for a plaintext one.
        @NullWhenAbsent var encryption: EncryptionLine?

        struct EncryptionLine: Encodable {
            var epoch: UInt32
        }

        struct TokenLine: Encodable {
            var created: String
            @NullWhenAbsent var device: String?
            var revoked: Bool
        }

        init(_ user: StoredUser) {
            (name, activeTokens, revokedTokens) = (user.name, user.activeTokens, user.revokedTokens)
            (devices, events) = (user.devices, user.events)
            lastPush = user.lastPush.map { ISO8601.format(milliseconds: $0) }
            lastPull = user.lastPull.map { ISO8601.format(milliseconds: $0) }
            tokens = user.tokens.map { TokenLine(created: ISO8601.format(milliseconds: $0.created), device: $0.device, revoked: $0.revoked) }
            encryption = user.encryptionEpoch.map(EncryptionLine.init)
        }

        enum CodingKeys: String, CodingKey {
            case name, devices, events
            case activeTokens = "active_tokens", revokedTokens = "revoked_tokens"
            case lastPush = "last_push", lastPull = "last_pull"
            case tokens, encryption
        }
    }
}
