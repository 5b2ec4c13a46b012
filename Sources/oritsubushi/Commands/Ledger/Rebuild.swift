import ArgumentParser
import LedgerCatalog
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

struct Rebuild: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Rebuild the completions projection from the whole log.",
        discussion: """
            Folds every event again and replaces projection.sqlite; the result equals the one every \
            command keeps current incrementally. A progress bar is drawn on stderr when it is a terminal.
            """)

    @OptionGroup var options: LedgerOptions

    func run() throws {
        let ledger = try options.open()
        defer { ledger.close() }
        var bar = ProgressBar(enabled: Terminal.stderrIsTerminal)
        // Without a terminal there is no bar: the fold then takes its loop without a progress
        // callback (counting and calling per record cost about a tenth of a rebuild).
        let projection = bar.enabled
            ? try ProjectionStore.rebuild(ledger) { done, total in bar.update(done, total) }
            : try ProjectionStore.rebuild(ledger)
        bar.finish()
        print("projection rebuilt: \(Plural.count(projection.stationCount, "station")) from \(Plural.count(ledger.recordCount, "record"))")
    }
}

/// A one-line progress bar on stderr, redrawn at most once per percent.
struct ProgressBar {
    var enabled: Bool
    private var lastPercent = -1

    init(enabled: Bool) { self.enabled = enabled }

    mutating func update(_ done: UInt64, _ total: UInt64) {
        guard enabled else { return }
        let percent = total == 0 ? 100 : Int(done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let filled = percent * 30 / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
        Terminal.write(fd: STDERR_FILENO, "\rrebuilding [\(bar)] \(percent)% \(done)/\(total) records")
    }

    mutating func finish() {
        guard enabled, lastPercent >= 0 else { return }
        Terminal.write(fd: STDERR_FILENO, "\n")
    }
}
