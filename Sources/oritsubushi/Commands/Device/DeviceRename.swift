import ArgumentParser
import LedgerCore
import SyncClient
import SyncServer

extension Device {
    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: "Rename this device on the server (names are distinct among your devices).",
            discussion: "Exit codes: 0, 64 a bad name, 65 another of your devices has the name.")

        @OptionGroup var options: DeviceConnectionOptions
        @Argument(help: ArgumentHelp("The new name.", valueName: "name")) var name: String

        func validate() throws {
            if DeviceNaming.valid(name) == nil {
                throw ValidationError("the name must be 1 to 255 bytes of UTF-8 that are not all white space")
            }
        }

        func run() async throws {
            let connection = try options.connection()
            var wanted = DeviceNaming.valid(name)!
            // An encrypted account's server keeps names sealed (Schemas/encryption.md §8).
            let account = try await connection.account()
            let keys = try options.keys()
            if account.encrypted {
                guard let keys else {
                    throw LedgerError(.permission, "this account is end-to-end encrypted and this device does not hold its key, so it cannot seal its name: get the key with a link from one of your devices or the recovery kit")
                }
                let ledger = try options.ledger.openForReading()
                defer { ledger.close() }
                let record = DeviceNameRecord(device: ledger.localDevice, hlc: HybridTimestamp(milliseconds: ledger.clock.nowMilliseconds()), name: wanted)
                wanted = try DeviceNameSealing.seal(record, with: keys.current)
            }
            let device = try await connection.rename(to: wanted).opened(with: keys)
            print("this device is now \(device.label)")
        }
    }
}
