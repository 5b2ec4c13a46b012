import ArgumentParser
import LedgerCore
import LedgerSync
import SyncClient

/// `oritsubushi encryption …`: this device's keys of an end-to-end encrypted account
/// (Schemas/encryption.md; docs/ledger-cli.md "End-to-end encryption").
struct Encryption: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encryption",
        abstract: "See this account's encryption, restore its key from the recovery kit, rotate the key, or write a sealed replica.",
        discussion: """
            An account is end-to-end encrypted when its server's operator made it so ('server \
            add-user NAME --encrypted'): its first device makes the key at its first sync and \
            writes the recovery kit to the ledger's recovery-kit.txt; other devices get the key \
            with a link ('device link') or the kit ('encryption recover'). The server keeps only \
            sealed records it cannot read. Every subcommand speaks for this ledger's device, with \
            the server and token of its last successful sync (or --server and --token). Exit \
            codes: 0, 64 bad arguments or a kit that does not read, 65 a kit of another key, 69 \
            server unreachable, 77 token refused or the key missing.
            """,
        subcommands: [Status.self, Enable.self, Recover.self, Rotate.self, Replica.self])
}

extension Encryption {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Say whether the account is encrypted, at which key epoch, and whether this device holds the key.")

        @OptionGroup var options: DeviceConnectionOptions

        func run() async throws {
            let connection = try options.connection()
            let account = try await connection.account()
            guard account.encrypted, let epoch = account.epoch else {
                print("this account is not end-to-end encrypted: the server can read its records")
                return
            }
            let ring = try KeyRing.load(ledgerDirectory: options.ledger.directory, fileSystem: PosixFileSystem(ownerOnly: true))
            print("this account is end-to-end encrypted: key epoch \(epoch), fingerprint \(account.fingerprint ?? "not registered yet")")
            switch ring?.key(epoch: epoch) {
            case let key? where key.fingerprint == account.fingerprint || account.fingerprint == nil:
                let rehearsed = ring?.isKitRehearsed == true ? "rehearsed" : "not rehearsed yet"
                print("this device holds the key (fingerprint \(key.fingerprint)); recovery kit \(rehearsed)")
            case let key?:
                print("this device holds another key (fingerprint \(key.fingerprint)): get the account's with a link or the kit")
            case nil:
                print("this device does not hold the key: get it with a link from one of your devices ('device link' there) or the recovery kit ('encryption recover')")
            }
        }
    }
}
