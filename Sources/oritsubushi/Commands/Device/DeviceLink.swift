import ArgumentParser
import LedgerCore
import SyncClient
import SyncServer

extension Device {
    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link",
            abstract: "Print a one-time code and link that add another device to your account.",
            discussion: """
                The other device opens the link (a phone: its camera or browser; another computer: \
                'oritsubushi device join LINK'), or types the code in the app's 同期 screen. The \
                code works once, until --ttl runs out, with the same limits as 'server pair' \
                (a few wrong codes a minute from one address). With --name the new device gets \
                that name (made distinct among your devices) instead of the one it asks for. On an \
                end-to-end encrypted account the link also carries the account's key, wrapped \
                under a secret that is only in the link (after '#', which no server sees): the \
                joining device shows the same key fingerprint as this one prints. The code alone \
                pairs a device without the key.
                """)

        @OptionGroup var options: DeviceConnectionOptions
        @Option(help: ArgumentHelp("The name the new device gets.", valueName: "name")) var name: String?
        @OptionGroup var lifetime: CodeLifetimeOptions
        @Flag(help: "Print one JSON object: {\"code\", \"url\", \"expires\", \"name\", \"fingerprint\"}.") var json = false

        func validate() throws {
            if let name, DeviceNaming.valid(name) == nil {
                throw ValidationError("--name must be 1 to 255 bytes of UTF-8 that are not all white space")
            }
        }

        func run() async throws {
            let connection = try options.connection()
            // An encrypted account's link carries its key (encryption.md §8): wrapped for the
            // server to hand over once, its secret only in the link's fragment.
            let keys = try await AccountKeys.prepare(connection: connection, ledgerDirectory: options.ledger.directory).keys
            let offer = keys.map { LinkKey.offer($0.current) }
            let link = try await connection.link(deviceName: name.flatMap(DeviceNaming.valid),
                                                 ttlSeconds: Int(lifetime.milliseconds / 1_000), wrappedKey: offer?.wrapped)
            guard let code = PairingCode(typed: link.code) else {
                throw LedgerError(.unavailable, "the sync server at \(connection.server) sent a code that is not a pairing code")
            }
            let url = code.appLink(base: connection.server) + (offer?.fragment ?? "")
            let expires = ISO8601.format(milliseconds: link.expires)
            if json {
                print(try JSONOutput.line(["code": code.grouped, "url": url, "expires": expires, "name": name.flatMap(DeviceNaming.valid),
                                           "fingerprint": offer?.fingerprint]))
                return
            }
            print("code for another device, valid once until \(expires):")
            print(code.grouped)
            if let offer {
                print("the link carries this account's key: the other device shows its fingerprint \(offer.fingerprint); the code alone does not")
            }
            print(url)
        }
    }
}
