import ArgumentParser
import LedgerCatalog
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new ledger with a new random device id and the bundled station catalogue.",
        discussion: """
            The bundled catalogue (version \(BundledCatalog.version), the original apps' station database) is \
            imported as `catalog import` would; --no-catalog creates a bare ledger instead (for a replica \
            that gets its catalogue version through merge or sync, or to import an older dump first).
            """)

    @OptionGroup var options: LedgerOptions

    @Option(help: "A human name for this device (default: the host name).")
    var device: String?

    @Flag(help: "Create a bare ledger without importing the bundled catalogue.")
    var noCatalog = false

    func run() throws {
        let name = device ?? Self.hostName()
        let ledger = try Ledger.create(directory: options.directory, deviceName: name, fileSystem: try Environment.fileSystem(),
                                       clock: try Environment.clock())
        defer { ledger.close() }
        print("created ledger \(options.directory) for device \(name) (\(ledger.localDevice))")
        guard !noCatalog else { return }
        do {
            try CatalogImport.applyBundled(to: ledger)
        } catch var error as LedgerError {
            // The ledger itself is committed (ledger.json); say how to finish rather than leave
            // the user with a ledger that `init` now refuses to create again.
            error.message += "; the ledger was created without its catalogue: run 'oritsubushi catalog import' to finish"
            throw error
        }
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "device" }
        // A name of exactly 256 bytes comes without its NUL: the buffer ends it.
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "device" : name
    }
}
