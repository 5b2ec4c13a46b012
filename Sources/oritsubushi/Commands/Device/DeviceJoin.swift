import ArgumentParser
import LedgerCore
import LedgerSync
import SyncClient
import SyncServer

extension Device {
    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "join",
            abstract: "Join your account with a link from 'device link' or 'server pair', then sync.",
            discussion: """
                Exchanges the link's one-time code for a token of this device, keeps the token in \
                the ledger's sync-token file (mode 0600) and the server in sync-state.json, as \
                'sync --token' does after a first sync, then syncs. A ledger that does not exist \
                yet is created first, as 'init' creates one. The device's name is --name, else \
                this ledger's device name, else the host name; the server makes it distinct \
                among your devices (the name it gave is printed). On an end-to-end encrypted \
                account a link from 'device link' also carries the account's key, which is kept \
                in the ledger's encryption-keys file (mode 0600) and whose fingerprint is printed; \
                an operator's code carries none (exit 77, saying how to get the key). Exit codes \
                as 'sync', and 77 for a code that is unknown, used or expired.
                """)

        @Argument(help: ArgumentHelp("The link: http(s)://SERVER/app/#pair=CODE (…&key=SECRET for an encrypted account).", valueName: "link")) var link: String
        @OptionGroup var options: LedgerOptions
        @Option(help: ArgumentHelp("This device's name on the server.", valueName: "name")) var name: String?

        func validate() throws {
            guard PairingLink(link) != nil else {
                throw ValidationError("'\(link)' is not a link of the form http(s)://SERVER/app/#pair=CODE[&key=SECRET]")
            }
            if let name, DeviceNaming.valid(name) == nil {
                throw ValidationError("--name must be 1 to 255 bytes of UTF-8 that are not all white space")
            }
        }

        func run() async throws {
            let link = PairingLink(link)!
            guard PairingCode(typed: link.code) != nil else {
                throw LedgerError(.usage, "the link's code '\(link.code)' is not a pairing code (8 letters and digits)")
            }
            if !options.exists {
                try Init.parse(["--ledger", options.directory] + (name.map { ["--device", $0] } ?? [])).run()
            }
            let deviceName = try name.flatMap(DeviceNaming.valid) ?? localDeviceName()
            let paired = try await SyncConnection(server: link.server, token: "").pair(code: link.code, deviceName: deviceName)
            print("joined user \(paired.user) at \(link.server) as device '\(paired.deviceName)' (\(paired.deviceID))")
            // The token is kept before the sync, so that a sync that fails (the server gone a
            // moment) leaves a device that a plain 'oritsubushi sync --server URL' finishes.
            try SyncToken.save(paired.token, ledgerDirectory: options.directory)
            if let wrapped = paired.wrappedKey, let secret = link.secret {
                let key = try LinkKey.receive(wrappedHex: wrapped, secret: secret, epoch: paired.epoch)
                try AccountKeys.keep(key, ledgerDirectory: options.directory)
                print("received the account's key with the link: fingerprint \(key.fingerprint) (the linking device shows the same)")
            } else if paired.encrypted == true {
                throw LedgerError(.permission, "joined, but this account is end-to-end encrypted and this code carried no key (an operator's code, or a link without its key part): open a link from one of your devices ('oritsubushi device link' there), or restore the key from the recovery kit ('oritsubushi encryption recover'), then sync")
            }
            var sync = try Sync.parse(["--ledger", options.directory, "--wait", String(options.wait), "--server", link.server])
            sync.token = paired.token
            try await sync.run()
        }

        /// The ledger's own device name (the host name when it has none).
        private func localDeviceName() throws -> String {
            let ledger = try options.openForReading()
            defer { ledger.close() }
            return DeviceNaming.valid(ledger.metadata.deviceName) ?? Init.hostName()
        }
    }
}
