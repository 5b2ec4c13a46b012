import ArgumentParser
import Foundation
import LedgerCore
import LedgerSync
import SyncClient

extension Encryption {
    struct Recover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recover",
            abstract: "Restore the account's key on this device from the recovery kit.",
            discussion: """
                Reads the kit's 16 words (64 characters of Crockford base32, as recovery-kit.txt \
                or the app shows them) from --recovery-kit FILE, else from standard input; \
                spaces, hyphens, case and O/I/L for 0/1/1 do not matter. The key is checked \
                against the account's fingerprint before it is kept in the ledger's \
                encryption-keys file (mode 0600); then 'oritsubushi sync' reads every record. A \
                ledger that does not exist yet is refused: create it with 'init' or 'device join'.
                """)

        @OptionGroup var options: DeviceConnectionOptions
        @Option(help: ArgumentHelp("A file holding the kit (recovery-kit.txt or the words alone; - for stdin).", valueName: "file"))
        var recoveryKit: String?

        func run() async throws {
            let text = try Self.read(recoveryKit)
            guard let key = Self.key(in: text) else {
                throw LedgerError(.usage, "no recovery kit found in \(recoveryKit ?? "standard input"): a kit is 16 words of 4 letters and digits, with a checksum that catches a mistyped character")
            }
            let connection = try options.connection()
            let account = try await connection.account()
            guard account.encrypted, let epoch = account.epoch else {
                throw LedgerError(.usage, "this account is not end-to-end encrypted: it has no key to restore")
            }
            guard key.epoch == epoch else {
                throw LedgerError(.conflict, "this kit is of key epoch \(key.epoch), but the account's key is at epoch \(epoch): use the newest kit (made when the key was last rotated)")
            }
            guard account.fingerprint == nil || account.fingerprint == key.fingerprint else {
                throw LedgerError(.conflict, "this kit's key (fingerprint \(key.fingerprint)) is not the account's (\(account.fingerprint ?? "")): it is another account's kit")
            }
            try AccountKeys.keep(key, ledgerDirectory: options.ledger.directory)
            print("restored the account's key from the kit: fingerprint \(key.fingerprint), epoch \(epoch); 'oritsubushi sync' now reads every record")
        }

        /// The whole text of `path` (`-` or nil: standard input).
        static func read(_ path: String?) throws -> String {
            guard let path, path != "-" else {
                return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw LedgerError(.usage, "cannot read the recovery kit file \(path)")
            }
            return String(decoding: data, as: UTF8.self)
        }

        /// The kit in `text`: the whole text, or the first line that reads as one (a kit file
        /// holds the words on one line among its other lines).
        static func key(in text: String) -> DataKey? {
            if let key = try? RecoveryKit.key(from: text) { return key }
            for line in text.split(whereSeparator: \.isNewline) {
                if let key = try? RecoveryKit.key(from: String(line)) { return key }
            }
            return nil
        }
    }
}
