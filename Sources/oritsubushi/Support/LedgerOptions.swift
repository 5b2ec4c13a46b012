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
    @Option(help: .seconds(
        "Wait up to this many seconds for another program that holds the ledger (0: refuse at once; readers never wait for readers)."))
    var wait: Double = 10

    func validate() throws {
        guard wait >= 0, wait <= 86_400 else { throw ValidationError("--wait must be 0 to 86400 seconds") }
    }

    var directory: String {
        if let ledger { return ledger }
        return Environment.variable("ORITSUBUSHI_LEDGER") ?? "oritsubushi.ledger"
    }

    /// Whether a ledger exists at the path (its `ledger.json`).
    var exists: Bool {
        PosixFileSystem().fileExists(Path.join(directory, LedgerMetadata.fileName))
    }

    /// Opens the ledger to write it: its lock held exclusively (waiting up to `--wait`), a torn
    /// tail recovered (reported on stderr).
    func open() throws -> Ledger {
        let ledger = try open(.exclusive)
        do {
            try ledger.requireWritable(projectionFile: LedgerFiles.projection)
        } catch {
            ledger.close()
            throw error
        }
        return ledger
    }

    /// Opens the ledger to read it: its lock held shared, so that readers never wait for each
    /// other, only for a writer (up to `--wait`).
    func openForReading() throws -> Ledger {
        try open(.shared)
    }

    private func open(_ mode: LedgerLock.Request.Mode) throws -> Ledger {
        let fileSystem = try Environment.fileSystem()
        // A re-identification a crash interrupted is finished first (Schemas/merge.md §10).
        try LedgerSwap.finishInterrupted(directory: directory, fileSystem: fileSystem, derivedFiles: [LedgerFiles.projection],
                                         lock: lockRequest(.exclusive))
        let ledger = try Ledger.open(directory: directory, fileSystem: fileSystem, clock: Environment.clock(), lock: lockRequest(mode))
        if let recovery = ledger.recovery { Terminal.error("warning: \(recovery)") }
        return ledger
    }

    /// Another ledger the command only reads (merge's source, reidentify's original, repair's
    /// replica), its lock held shared; refused with `sameLedger` when it is this very ledger
    /// under another path (a link, `..`), which would read and write one log at once.
    func openOther(_ path: String, refusingSelf sameLedger: @autoclosure () -> String) throws -> Ledger {
        if let other = Self.canonical(path), other == Self.canonical(directory) {
            throw LedgerError(.usage, sameLedger())
        }
        return try Ledger.open(directory: path, fileSystem: try Environment.fileSystem(), clock: try Environment.clock(),
                               lock: lockRequest(.shared))
    }

    /// The path with links and `..` resolved, or nil when it does not exist.
    static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A lock of `mode`, waited for as `--wait` says.
    func lockRequest(_ mode: LedgerLock.Request.Mode) -> LedgerLock.Request {
        LedgerLock.Request(mode: mode, waitSeconds: wait)
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
