import ArgumentParser
import LedgerCore
import LedgerSync
import SyncClient

extension Encryption {
    /// `oritsubushi encryption replica DIR`: a sealed copy of this device's ledger, which the
    /// server's operator can repair an encrypted account from without the key
    /// (Schemas/encryption.md §11, "Repairing a sealed log").
    struct Replica: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replica",
            abstract: "Write a sealed copy of this ledger for the server's 'server repair'.",
            discussion: """
                For an end-to-end encrypted account whose stored records the server found \
                damaged: writes DIR, a new ledger directory holding every event and device name \
                of this ledger sealed under the newest key this device holds, each event on its \
                own so that it fills whatever the server lost; it holds no key and no plaintext. Give DIR to the operator for \
                'oritsubushi server repair NAME --from DIR'. Needs no network. Exit codes: 0 \
                written, 64 DIR exists or is not writable, 66 no ledger, 77 this device holds \
                no key (it is not an encrypted account's, or it was never given the key).
                """)

        @Argument(help: ArgumentHelp("The directory to create (it must not exist).", valueName: "dir"))
        var directory: String
        @OptionGroup var options: LedgerOptions

        func run() async throws {
            guard !PosixFileSystem().fileExists(directory), !PosixFileSystem().directoryExists(directory) else {
                throw LedgerError(.usage, "\(directory) exists already: name a new directory for the sealed copy")
            }
            // The ledger first: a missing one is told as such (66), not as a missing key.
            let ledger = try options.openForReading()
            defer { ledger.close() }
            guard let ring = try KeyRing.load(ledgerDirectory: options.directory, fileSystem: PosixFileSystem(ownerOnly: true)) else {
                throw LedgerError(.permission, "this device holds no key of an end-to-end encrypted account: nothing to seal (a plaintext account's server repairs from the ledger itself)")
            }
            let written = try SealedReplicaWriter.write(ledger, ring: ring, to: directory)
            let (events, key) = (written.events, written.key)
            print("wrote \(Plural.count(events, "sealed event")) and \(Plural.count(ledger.deviceNames.count, "device name")) to \(directory) (key epoch \(key.epoch), fingerprint \(key.fingerprint)); it holds no key: give it to the operator for 'server repair NAME --from \(directory)'")
        }
    }
}
