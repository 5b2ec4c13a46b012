import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerSync

#if canImport(Glibc)
import Glibc
#endif

/// `--ledger DIR`, shared by every command that works on a ledger.
struct LedgerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The ledger directory (default: $ORITSUBUSHI_LEDGER, else ./oritsubushi.ledger).", valueName: "dir"))
    var ledger: String?

    var directory: String {
        if let ledger { return ledger }
        return Environment.variable("ORITSUBUSHI_LEDGER") ?? "oritsubushi.ledger"
    }

    /// Opens the ledger (taking its lock and recovering a torn tail, which is reported on stderr).
    func open() throws -> Ledger {
        let fileSystem = try Environment.fileSystem()
        // A re-identification a crash interrupted is finished first (Schemas/merge.md §10).
        try LedgerSwap.finishInterrupted(directory: directory, fileSystem: fileSystem, derivedFiles: [LedgerFiles.projection])
        let ledger = try Ledger.open(directory: directory, fileSystem: fileSystem, clock: Environment.clock())
        if let recovery = ledger.recovery { Terminal.error("warning: \(recovery)") }
        return ledger
    }
}

enum Environment {
    /// The real file system; in debug builds, wrapped by the fault simulation that
    /// `ORITSUBUSHI_SIMULATE_FAULT=disk-full|read-only` selects (a test hook, RELIABILITY.md).
    static func fileSystem() throws -> any FileSystem {
        #if ORITSUBUSHI_FAULT_HOOKS
        try FaultInjectingFileSystem.fromEnvironment(base: PosixFileSystem())
        #else
        PosixFileSystem()
        #endif
    }

    /// The system clock, or the instant in `ORITSUBUSHI_NOW` (ISO 8601 or Unix seconds), which
    /// pins "now" and "today" for reproducible demos and tests.
    static func clock() throws -> any WallClock {
        guard let text = variable("ORITSUBUSHI_NOW") else { return SystemClock() }
        guard let ms = ISO8601.parseMilliseconds(text) else {
            throw LedgerError(.usage, "ORITSUBUSHI_NOW='\(text)' is not an ISO 8601 time or Unix seconds")
        }
        return FixedClock(milliseconds: ms)
    }

    /// A non-empty environment variable.
    static func variable(_ name: String) -> String? {
        guard let raw = getenv(name), raw.pointee != 0 else { return nil }
        return String(cString: raw)
    }
}
