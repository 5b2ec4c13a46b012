import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerGenerator

#if canImport(Glibc)
import Glibc
#endif

/// `oritsubushi generate`: a new ledger holding a realistic, reproducible synthetic history,
/// for benchmarks and demos.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Create a new ledger holding a realistic, reproducible synthetic history.",
        discussion: """
            Trips complete runs of neighbouring stations along one line on one day; about 10% of \
            events correct an earlier date, 1% un-complete a station, 5% carry a Japanese memo. \
            The generated devices' events are written as merged-in (replicated) events in large \
            batches, one fsync per batch. Stations and lines are the bundled catalogue's (so every \
            s_id is a real one) unless --catalog names a dump or --synthetic asks for made-up \
            lines. The same --seed, --devices, --events and catalogue give the same events.
            """)

    @OptionGroup var options: LedgerOptions
    @Option(help: "How many station edits to generate.") var events: Int
    @Option(help: "How many devices wrote them (1 to 64).") var devices = 3
    @Option(help: "The random seed.") var seed: UInt64 = 1
    @Option(help: ArgumentHelp("Draw stations and lines from this catalogue dump (e.g. stations-177.sql); default: the bundled catalogue.",
                               valueName: "file"))
    var catalog: String?
    @Flag(help: "Use made-up lines with ids from 120001 instead of a catalogue (the histories of earlier versions).")
    var synthetic = false

    func validate() throws {
        guard events >= 1 else { throw ValidationError("--events must be at least 1") }
        guard (1...64).contains(devices) else { throw ValidationError("--devices must be between 1 and 64") }
        guard !(synthetic && catalog != nil) else { throw ValidationError("--synthetic and --catalog cannot be used together") }
    }

    func run() throws {
        let started = Self.monotonicSeconds()
        let lines = try lineCatalog()
        var generator = HistoryGenerator(seed: seed, deviceCount: devices, catalog: lines, expectedEvents: events)
        let ledger = try Ledger.create(directory: options.directory, deviceName: "generate",
                                       fileSystem: try Environment.fileSystem(), clock: try Environment.clock())
        defer { ledger.close() }
        let showProgress = Terminal.stderrIsTerminal
        try HistoryWriter.write(events: events, from: &generator, into: ledger) { written in
            if showProgress { Terminal.write(fd: STDERR_FILENO, "\rgenerated \(written) of \(events) events") }
        }
        if showProgress { Terminal.write(fd: STDERR_FILENO, "\n") }
        let seconds = Self.monotonicSeconds() - started
        let rate = seconds > 0 ? Int(Double(events) / seconds) : 0
        print("generated \(Plural.count(events, "event")) from \(Plural.count(devices, "device")) on \(Plural.count(lines.lines.count, "line")) into \(options.directory)")
        print("    \(Plural.count(ledger.bytesOnDisk, "byte")) in \(Plural.count(ledger.segments.count, "segment")), \((seconds * 100).rounded() / 100) s (\(rate) events/s)")
    }

    private func lineCatalog() throws -> LineCatalog {
        if synthetic { return .synthetic() }
        if let catalog { return try LineCatalog.load(dumpAt: catalog) }
        return try BundledCatalog.bytes().withUnsafeBufferPointer { LineCatalog.parse($0) }
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
