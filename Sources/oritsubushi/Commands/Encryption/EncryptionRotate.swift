import ArgumentParser
import LedgerCore
import LedgerSync
import SyncClient

extension Encryption {
    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Move the account to a new key (after a device was lost), with a new recovery kit.",
            discussion: """
                Makes the next key epoch's key, keeps it in the ledger's encryption-keys file \
                first, then gives the server the current key wrapped under the new one (its key \
                chain, so that a device holding only the newest key reads older records) and \
                the new key's fingerprint. From then on the server refuses at once, with a \
                sentence, any push sealed under an older key: every other device needs the new \
                key by a link from this one ('device link') or the new kit. Nothing stored is \
                encrypted again. The new kit goes to --recovery-kit FILE, else to the ledger's \
                recovery-kit.txt (mode 0600). Revoke the lost device's token too ('device \
                revoke'). An interrupted rotation is finished by running it again.
                """)

        @OptionGroup var options: DeviceConnectionOptions
        @Option(help: ArgumentHelp("Write the new recovery kit to FILE (mode 0600).", valueName: "file")) var recoveryKit: String?

        func run() async throws {
            let connection = try options.connection()
            let directory = options.ledger.directory
            let fileSystem = PosixFileSystem(ownerOnly: true)
            let keys = try await AccountKeys.prepare(connection: connection, ledgerDirectory: directory, fileSystem: fileSystem)
            guard let ring = keys.keys else {
                throw LedgerError(.usage, "this account is not end-to-end encrypted: it has no key to rotate")
            }
            let current = ring.current
            guard current.epoch < UInt32.max else { throw LedgerError(.usage, "the account's key epoch cannot go higher") }
            // A rotation whose request did not arrive left its key in the file: it is sent again.
            let stored = try KeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem)
            let next = stored?.key(epoch: current.epoch + 1) ?? DataKey.random(epoch: current.epoch + 1)
            try AccountKeys.keep(next, ledgerDirectory: directory, fileSystem: fileSystem)
            let wrapped = KeyWrap.wrap(current, under: next.chainKey, purpose: .chain)
            _ = try await connection.rotateKey(epoch: next.epoch, previousWrapped: wrapped, fingerprint: next.fingerprint)
            let kit = try RecoveryKitFile.write(for: next, to: recoveryKit, ledgerDirectory: directory, fileSystem: fileSystem)
            print("rotated the account's key to epoch \(next.epoch): fingerprint \(next.fingerprint); the new recovery kit is in \(kit) (the old kit no longer restores new records)")
            print("every other device needs the new key: a link from this device ('oritsubushi device link'), or the new kit")
        }
    }
}
