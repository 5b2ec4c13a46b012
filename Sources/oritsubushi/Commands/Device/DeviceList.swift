import ArgumentParser
import LedgerCore
import SyncClient

extension Device {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List your devices: id, name, last sync; '*' marks this one.",
            discussion: """
                Only devices whose token is active are listed (a revoked one is gone). The last \
                sync is recorded by the server at most once a minute per device.
                """)

        @OptionGroup var options: DeviceConnectionOptions
        @Flag(help: "Print one JSON object per line: {\"id\", \"name\", \"created\", \"last_sync\", \"this_device\"}.") var json = false

        func run() async throws {
            let devices = try await options.connection().devices()
            for device in devices {
                if json {
                    print(try JSONOutput.line(DeviceLine(device)))
                } else {
                    let synced = device.lastSync.map { "last sync \(ISO8601.format(milliseconds: $0))" } ?? "never synced"
                    print("\(device.thisDevice ? "*" : " ") \(device.id)  \(device.name ?? "(no name)")  \(synced)")
                }
            }
        }
    }
}

/// One device of `device list --json`, times as ISO 8601 (null when unknown).
private struct DeviceLine: Encodable {
    var id: String
    @NullWhenAbsent var name: String?
    var created: String
    @NullWhenAbsent var lastSync: String?
    var thisDevice: Bool

    init(_ device: SyncConnection.Device) {
        id = device.id
        name = device.name
        created = ISO8601.format(milliseconds: device.created)
        lastSync = device.lastSync.map { ISO8601.format(milliseconds: $0) }
        thisDevice = device.thisDevice
    }

    enum CodingKeys: String, CodingKey {
        case id, name, created
        case lastSync = "last_sync"
        case thisDevice = "this_device"
    }
}
