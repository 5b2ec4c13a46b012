import ArgumentParser
import LedgerCore
import LedgerSync
import SyncClient

extension Device {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List your devices: id, name, last sync; '*' marks this one.",
            discussion: """
                Only devices whose token is active are listed (a revoked one is gone). The last \
                sync is recorded by the server at most once a minute per device. On an \
                end-to-end encrypted account the server keeps the names sealed: they are opened \
                with this device's key ("(sealed name)" without it).
                """)

        @OptionGroup var options: DeviceConnectionOptions
        @Flag(help: "Print one JSON object per line: {\"id\", \"name\", \"created\", \"last_sync\", \"this_device\"}.") var json = false

        func run() async throws {
            let keys = try options.keys()
            let devices = try await options.connection().devices().map { $0.opened(with: keys) }
            for device in devices {
                if json {
                    print(try JSONOutput.line(device.withTimes(ISO8601.format(milliseconds:))))
                } else {
                    let synced = device.lastSync.map { "last sync \(ISO8601.format(milliseconds: $0))" } ?? "never synced"
                    print("\(device.thisDevice ? "*" : " ") \(device.id)  \(device.name ?? "(no name)")  \(synced)")
                }
            }
        }
    }
}
