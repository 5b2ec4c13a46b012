import ArgumentParser
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a new, empty ledger with a new random device id.")

    @OptionGroup var options: LedgerOptions

    @Option(help: "A human name for this device (default: the host name).")
    var device: String?

    func run() throws {
        let name = device ?? Self.hostName()
        let ledger = try Ledger.create(directory: options.directory, deviceName: name, fileSystem: try Environment.fileSystem(),
                                       clock: try Environment.clock())
        defer { ledger.close() }
        print("created ledger \(options.directory) for device \(name) (\(ledger.localDevice))")
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "device" }
        let name = String(cString: buffer)
        return name.isEmpty ? "device" : name
    }
}
