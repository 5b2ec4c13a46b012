import ArgumentParser
import LedgerCore
import SyncServer

extension Server {
    struct DeleteUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-user",
            abstract: "Erase a user: their tokens and every stored event (requires --yes).",
            discussion: """
                Files store: the users.json entry and tokens, DATA/ledgers/NAME, the user's \
                device claims in DATA/devices/ and activity file are removed and their \
                directories fsynced; PostgreSQL: every row of the user, in one transaction. \
                Afterwards the user's tokens are refused (401) and 'server users' omits them. \
                Without --yes nothing is changed. Export first if the data is to be kept \
                ('server export'). Exit codes: 0 deleted, 64 no --yes or no such user, 69 store \
                unreachable.
                """)

        @Argument(help: "The user name.") var name: String
        @OptionGroup var store: StoreOptions
        @Flag(help: "Confirm: the user's data cannot be brought back.") var yes = false

        func run() async throws {
            try UserStore.validate(name: name)
            guard yes else {
                throw LedgerError(.usage, "delete-user erases user '\(name)' and every stored event; add --yes to confirm (nothing was changed)")
            }
            try await store.withAdministration { admin, _ in try await admin.deleteUser(name) }
            print("deleted user \(name): tokens and stored events removed")
        }
    }
}
