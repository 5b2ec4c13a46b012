import ArgumentParser
import LedgerCore
import LedgerSync
import SyncClient

/// `oritsubushi device …`: the user's own devices, through the sync server this ledger syncs with
/// (docs/ledger-cli.md "Your devices"; Schemas/sync-api.yaml `/v1/devices…`).
struct Device: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Link another device to your account, list your devices, rename, revoke or sign one out.",
        discussion: """
            Every subcommand but 'join' speaks for this ledger's device, with the server and token \
            of its last successful sync (or --server and --token). Exit codes: 0, 64 bad \
            arguments or no such device, 65 a name another device has, 69 server unreachable, \
            75 too many attempts (wait), 77 token or code refused.
            """,
        subcommands: [Link.self, Join.self, List.self, Rename.self, Revoke.self, SignOut.self])
}

/// --ledger, --server and --token: the server and token of this ledger's device.
struct DeviceConnectionOptions: ParsableArguments {
    @OptionGroup var ledger: LedgerOptions
    @Option(help: ArgumentHelp("The server's base URL (default: the server of the last successful sync).", valueName: "url"))
    var server: String?
    @Option(help: "The bearer token (default: $ORITSUBUSHI_TOKEN, else the ledger's sync-token file).") var token: String?

    func connection() throws -> SyncConnection {
        let server = try server ?? Sync.rememberedServer(ledgerDirectory: ledger.directory)
        return try SyncConnection(server: server, token: try SyncToken.resolve(token, ledgerDirectory: ledger.directory))
    }
}

extension SyncConnection.Device {
    /// `name (id)`, or `(no name) (id)` for a token of `server add-user` / `add-token`.
    var label: String { "\(name ?? "(no name)") (\(id))" }

    /// The same device with its sealed name (an encrypted account's, Schemas/encryption.md §8)
    /// opened with `keys`, or "(sealed name)" when this device cannot open it.
    func opened(with keys: KeyRing?) -> SyncConnection.Device {
        guard let name, SealedDeviceName.isSealed(name) else { return self }
        var opened = self
        opened.name = keys.flatMap { DeviceNameSealing.open(name, keys: $0) } ?? "(sealed name)"
        return opened
    }
}

extension DeviceConnectionOptions {
    /// This ledger's device's keys of an encrypted account, if it holds any.
    func keys() throws -> KeyRing? {
        try KeyRing.load(ledgerDirectory: ledger.directory, fileSystem: PosixFileSystem(ownerOnly: true))
    }
}
