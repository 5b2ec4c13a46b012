import ArgumentParser
import LedgerCore
import LedgerSync
import SyncClient

extension Encryption {
    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enable",
            abstract: "Turn this account end-to-end encrypted: the server keeps only what it cannot read.",
            discussion: """
                Makes the account's key on this device (random, never from a password; kept in \
                the ledger's encryption-keys file, mode 0600), syncs, then uploads a sealed copy \
                of every event. The server keeps its readable copy, and keeps serving it, until it \
                holds the sealed copy of every event; then it replaces it in one step. An \
                interrupted 'enable' is finished by running it again, with the same key; nothing \
                is lost. Then it writes the recovery kit (to --recovery-kit FILE, else the \
                ledger's recovery-kit.txt) and, at a terminal, asks for two of its words. Every \
                other device gets the key by a link from this one ('device link') or the kit. \
                Exit codes as 'sync'; 65 when another device is turning it on with another key.
                """)

        @OptionGroup var options: DeviceConnectionOptions
        @Option(help: ArgumentHelp("Write the recovery kit to FILE (mode 0600).", valueName: "file")) var recoveryKit: String?

        func run() async throws {
            let connection = try options.connection()
            let directory = options.ledger.directory
            let fileSystem = PosixFileSystem(ownerOnly: true)
            if try await connection.account().encrypted {
                // Refuses, with how to get it, when this device lacks the account's key.
                let keys = try await AccountKeys.prepare(connection: connection, ledgerDirectory: directory, fileSystem: fileSystem)
                print("this account is end-to-end encrypted already, and this device holds its key")
                // An 'enable' interrupted after the server's swap has not written the kit yet.
                if let key = keys.keys?.current, recoveryKit == nil,
                   !fileSystem.fileExists(RecoveryKitFile.path(ledgerDirectory: directory)) {
                    try finish(with: key, directory: directory, fileSystem: fileSystem)
                }
                return
            }
            // The same key across an interrupted run: the server's staged copy is sealed with it.
            let key = try KeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem)?.key(epoch: 1) ?? DataKey.random(epoch: 1)
            try AccountKeys.keep(key, ledgerDirectory: directory, fileSystem: fileSystem)
            var encrypted = false
            for _ in 0..<8 where !encrypted {
                // The device first holds every event the server does, its own pushed.
                var sync = try Sync.parse(["--ledger", directory] + (options.server.map { ["--server", $0] } ?? []))
                sync.token = options.token
                try await sync.run()
                let ledger = try options.ledger.openForReading()
                defer { ledger.close() }
                encrypted = try await ConversionUpload.run(ledger, connection: connection, key: key)
            }
            guard encrypted else {
                throw LedgerError(.unavailable, "other devices kept pushing while this one uploaded: run 'oritsubushi encryption enable' again to finish (nothing is lost)")
            }
            try finish(with: key, directory: directory, fileSystem: fileSystem)
        }

        /// Writes the kit, says so, and asks for its rehearsal at a terminal.
        private func finish(with key: DataKey, directory: String, fileSystem: any FileSystem) throws {
            let kit = try RecoveryKitFile.write(for: key, to: recoveryKit, ledgerDirectory: directory, fileSystem: fileSystem)
            print("this account is end-to-end encrypted now: key fingerprint \(key.fingerprint); the recovery kit is in \(kit) (keep it off this device: lose it and every device, and the data is gone)")
            print("every other device needs the key: a link from this device ('oritsubushi device link'), or the kit")
            KitRehearsal.askIfOwed(ledgerDirectory: directory)
        }
    }
}
