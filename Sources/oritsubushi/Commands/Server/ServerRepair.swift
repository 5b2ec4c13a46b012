import ArgumentParser
import LedgerCore
import SyncServer

extension Server {
    struct Repair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repair",
            abstract: "Restore a user's damaged stored events from a client's replica.",
            discussion: """
                The inverse of a client's 'verify --repair --server': LEDGER_DIR is a healthy \
                replica of the user (a device's ledger directory, not in use). Damaged segments \
                (files store) or rows (PostgreSQL) go to a quarantine — ledgers/NAME/quarantine/\
                <UTC time>/ or a quarantine table — and are never deleted; the events they held \
                come from the replica. When the replica lacks some of them, they are named by \
                device and seq range and nothing is changed (exit 65). Runs while the server \
                does: the files store's server has closed a ledger it found damaged; one it still \
                holds is refused (exit 75). Exit codes: 0 repaired or nothing to repair, 65 not \
                repairable, 66 no such user or replica, 69 store unreachable, 75 ledger in use.
                """)

        @Argument(help: "The user name.") var name: String
        @Option(help: ArgumentHelp("A client's replica of the user's ledger.", valueName: "ledger-dir")) var from: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try UserStore.validate(name: name)
            let report = try await store.withAdministration { admin, now in
                try await admin.repair(user: name, from: from, now: now)
            }
            guard report.restoredEvents > 0 || report.quarantine != nil else {
                print("ok: user \(name)'s stored events are sound; nothing to repair")
                return
            }
            guard let quarantine = report.quarantine else {
                // Only missing events: nothing damaged to set aside.
                print("repaired user \(name): \(report.restoredEvents) missing events restored from \(from)")
                return
            }
            for moved in report.moved { print("moved \(moved) aside to \(quarantine)") }
            print("repaired user \(name): \(report.restoredEvents) events restored from \(from); the originals are in \(quarantine)")
        }
    }
}
