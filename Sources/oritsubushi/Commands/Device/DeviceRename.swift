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
            let device = try await options.connection().rename(to: DeviceNaming.valid(name)!)
            print("this device is now \(device.label)")
        }
    }
}
