import ArgumentParser
import LedgerCore
import SyncServer

extension Server {
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Read every stored event of one user (or all) and check it.",
            discussion: """
                Files store: every segment's frame checksums, footer and the seq continuity of \
                every device; PostgreSQL: every row's content against its recorded digest and the \
                seq continuity. One line per damaged user (user, file or table, byte offset or \
                seq, what is wrong); --json prints {"ok", "users_checked", "damaged": [{"user", \
                "location", "message", and "offset", "device", "seq" when known}]}. While a user's data is \
                damaged the server answers that user 503 and serves everyone else (PostgreSQL: \
                verify records what it found in users.damage, so every instance answers 503 from \
                then on, until a repair or a verify that finds the user sound); 'server \
                repair NAME --from DIR' restores it. Works while the server runs. Exit codes: \
                0 sound, 65 damage found (the first damage named on stderr), 66 no such user, \
                69 store unreachable.
                """)

        @Argument(help: "Only this user (default: every user).") var name: String?
        @OptionGroup var store: StoreOptions
        @Flag(help: "Print one JSON object.") var json = false

        struct Output: Encodable {
            var ok: Bool
            var users_checked: Int
            var damaged: [StoreDamage]
        }

        func run() async throws {
            let (checked, damage) = try await store.withAdministration { admin, _ in
                let checked = try await name == nil ? admin.users().count : 1
                return (checked, try await admin.verify(user: name))
            }
            if json {
                print(try JSONOutput.line(Output(ok: damage.isEmpty, users_checked: checked, damaged: damage)))
            } else if damage.isEmpty {
                print(name.map { "ok: user \($0)'s stored events are sound" } ?? "ok: the stored events of \(checked) users are sound")
            } else {
                for item in damage { print("damaged: user \(item.user): \(Self.describe(item))") }
            }
            guard let first = damage.first else { return }
            throw LedgerError(.corruption, "user '\(first.user)''s stored events are damaged: \(Self.describe(first))\(damage.count > 1 ? " (and \(damage.count - 1) more)" : ""); repair with 'server repair \(first.user) --from LEDGER_DIR'")
        }

        static func describe(_ damage: StoreDamage) -> String {
            var place = damage.location
            if let offset = damage.offset { place += " at offset \(offset)" }
            if let device = damage.device { place += ", device \(device)" }
            if let seq = damage.seq { place += " seq \(seq)" }
            return "\(place): \(damage.message)"
        }
    }
}
