import Foundation
import ArgumentParser
import LedgerCore
import SyncServer

extension Server {
    struct Repair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repair",
            abstract: "Restore a user's damaged stored events from a client's replica.",
            discussion: """
                The inverse of a client's 'verify --repair --server': each LEDGER_DIR (--from, \
                repeatable) is a replica of the user (a device's ledger directory, not in use; \
                for an end-to-end encrypted account, a sealed one: a 'server export' of it, or \
                what 'oritsubushi encryption replica DIR' writes on a device, so that no key is \
                needed; a device's own ledger that holds the account's key is sealed with it \
                first, and the key is not kept). \
                Damaged segments (files store) or rows (PostgreSQL) go to a quarantine — \
                ledgers/NAME/quarantine/<UTC time>/ or a quarantine table — and are never \
                deleted; the events they held come from the replicas. When no replica holds some \
                of them, they are named by device and seq range and nothing is changed (exit 65). \
                With --accept-loss the repair goes ahead without them: those events and their \
                device's later ones are given up (a device's seqs cannot skip) and named; without \
                --yes it only prints what would be lost (exit 64). Runs while the server does: the \
                files store's server has closed a ledger it found damaged; one it still holds is \
                refused (exit 75). Exit codes: 0 repaired or nothing to repair, 64 --accept-loss \
                without --yes would lose events, 65 not repairable, 66 no such user or replica, \
                69 store unreachable, 75 ledger in use; a replica of the other form than the account's \
                is 64.
                """)

        @Argument(help: "The user name.") var name: String
        @Option(help: ArgumentHelp("A client's replica of the user's ledger (repeat for several).", valueName: "ledger-dir"))
        var from: [String]
        @Flag(help: "Repair even when no replica holds some events; they (and their device's later events) are named and given up.")
        var acceptLoss = false
        @Flag(help: "With --accept-loss: confirm the loss (otherwise it is only printed).") var yes = false
        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard !from.isEmpty else { throw ValidationError("give at least one --from LEDGER_DIR") }
            if yes && !acceptLoss { throw ValidationError("--yes confirms --accept-loss; give both or neither") }
        }

        func run() async throws {
            try UserStore.validate(name: name)
            do { try await repair(from: from) } catch let error as LedgerError {
                // An encrypted account given a device's own ledger: sealed here with the key that
                // ledger holds (never kept), then repaired from (encryption.md §11).
                guard case .plaintextReplica = error.cause else { throw error }
                let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("oritsubushi-sealed-replicas-\(UUID().uuidString)").path
                try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(atPath: scratch) }
                guard let sealed = try SealedReplicaWriter.sealingKeyedReplicas(from, under: scratch) else { throw error }
                try await repair(from: sealed)
            }
        }

        /// The repair from `replicas` (sealed copies of the given ones, for an encrypted account).
        private func repair(from replicas: [String]) async throws {
            let loss: StoreRepairRequest.Loss = !acceptLoss ? .refuse : (yes ? .accept : .plan)
            let request = StoreRepairRequest(user: name, replicas: replicas, loss: loss)
            let report = try await store.withAdministration { admin, now in try await admin.repair(request, now: now) }
            let sources = from.joined(separator: ", ")
            guard report.applied else {
                guard let lost = report.lost else {
                    // Nothing would be lost: the plain repair does it all.
                    let repaired = try await store.withAdministration { admin, now in
                        try await admin.repair(StoreRepairRequest(user: name, replicas: replicas), now: now)
                    }
                    return printRepaired(repaired, sources: sources)
                }
                throw LedgerError(.usage, "repairing user \(name) from \(sources) would lose \(Plural.count(report.lostEvents, "event")) no replica holds (\(lost)); add --yes to repair and give them up (nothing was changed)")
            }
            printRepaired(report, sources: sources)
        }

        private func printRepaired(_ report: StoreRepairReport, sources: String) {
            guard report.restoredEvents > 0 || report.quarantine != nil else {
                print("ok: user \(name)'s stored events are sound; nothing to repair")
                return
            }
            for moved in report.moved { print("moved \(moved) aside to \(report.quarantine ?? "the quarantine")") }
            if let lost = report.lost { print("lost \(Plural.count(report.lostEvents, "event")) no replica held: \(lost)") }
            guard let quarantine = report.quarantine else {
                // Only missing events: nothing damaged to set aside.
                print("repaired user \(name): \(Plural.count(report.restoredEvents, "missing event")) restored from \(sources)")
                return
            }
            print("repaired user \(name): \(Plural.count(report.restoredEvents, "event")) restored from \(sources); the originals are in \(quarantine)")
        }
    }
}
