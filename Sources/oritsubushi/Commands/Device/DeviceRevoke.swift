import ArgumentParser
import LedgerCore
import LedgerSync
import SyncClient

extension Device {
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Sign one of your devices out (a lost phone): its token stops working at once.",
            discussion: """
                NAME is a device's name or id as 'device list' shows it. A name that several \
                devices share is refused, listing their ids. The device's events stay on the \
                server; its next sync is refused with a sentence that says it was signed out. \
                Revoking this device's own name signs it out, as 'device sign-out' does.
                """)

        @OptionGroup var options: DeviceConnectionOptions
        @Argument(help: ArgumentHelp("The device's name or id.", valueName: "name")) var name: String

        func run() async throws {
            let connection = try options.connection()
            let devices = try await connection.devices()
            let matches = devices.filter { $0.id == name || $0.name == name }
            guard !matches.isEmpty else {
                let known = devices.map(\.label).joined(separator: ", ")
                throw LedgerError(.usage, "you have no device named '\(name)' (your devices: \(known.isEmpty ? "none" : known))")
            }
            guard matches.count == 1 else {
                throw LedgerError(.usage, "\(matches.count) of your devices are named '\(name)' (ids \(matches.map(\.id).joined(separator: ", "))); give the id")
            }
            let revoked = try await connection.revoke(id: matches[0].id)
            print("revoked device \(revoked.label)\(matches[0].thisDevice ? " (this device: signed out)" : "")")
        }
    }
}
