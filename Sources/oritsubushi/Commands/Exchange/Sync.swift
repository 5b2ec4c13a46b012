import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerSync
import SyncClient

#if canImport(Glibc)
import Glibc
#endif

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Pull then push events with a sync server until both hold the same set.",
        discussion: """
            The token comes from --token, else $ORITSUBUSHI_TOKEN, else the first line of the \
            file 'sync-token' in the ledger directory; it is never printed. After a successful \
            sync a token given with --token is kept in that file (mode 0600; not with \
            --no-save-token), and the server is kept in 'sync-state.json': a plain \
            'oritsubushi sync' then syncs with the same server and token. An interrupted sync \
            resumes where it stopped when run again. A copied ledger (a restored backup, a cloned \
            directory) is detected: its local device takes a new id, its diverging events are \
            appended again under it, the old segments go to quarantine/, and the sync carries on \
            (one line says so). Events of a copy that this ledger received by merge are refused \
            (exit 65) unless --rehome moves them to a new device id the same way. What the server holds is kept in 'sync-state.json' for 'reissue'. \
            Exit codes: 69 server unreachable, 77 token refused, 65 events refused by either side \
            (a clock too far ahead: fix it, then run 'oritsubushi reissue'; events of a copied \
            ledger received by merge: run again with --rehome).
            """)

    @OptionGroup var options: LedgerOptions
    @Option(help: ArgumentHelp("The server's base URL, e.g. http://127.0.0.1:8080 (default: the server of the last successful sync).",
                               valueName: "url")) var server: String?
    @Option(help: "The bearer token (prefer $ORITSUBUSHI_TOKEN: arguments show in process lists).") var token: String?
    @Flag(help: "Do not keep the --token in the ledger's sync-token file.") var noSaveToken = false
    @Flag(name: .shortAndLong, help: "Say on stderr when a request is sent again (the server closed its connection as it went out).")
    var verbose = false
    @Flag(help: "Move another device's events that this ledger received from a copied ledger (by merge) to a new device id, and sync them.")
    var rehome = false
    @OptionGroup var language: LanguageOptions

    func run() async throws {
        let server = try server ?? Self.rememberedServer(ledgerDirectory: options.directory)
        let secret = try SyncToken.resolve(token, ledgerDirectory: options.directory)
        var connection = try SyncConnection(server: server, token: secret)
        if verbose { connection.retries = RetryLog { Terminal.write(fd: STDERR_FILENO, "sync: \($0)\n") } }
        var session = SyncSession(connection: connection)
        // The ledger first, so that a missing, damaged or busy ledger is told before the server
        // is asked anything; then an end-to-end encrypted account's keys (Schemas/encryption.md
        // §11): made here by the account's first device, which also writes the recovery kit and
        // says so in one line.
        var opened: Ledger? = try options.open()
        let encryption: AccountKeys.Prepared
        do { encryption = try await AccountKeys.prepare(connection: connection, ledgerDirectory: options.directory) } catch {
            opened?.close()
            throw error
        }
        session.keys = encryption.keys
        if let kit = encryption.kitWritten {
            print("this account is end-to-end encrypted: this device made its key; the recovery kit is in \(kit) (keep it off this device: lose it and every device, and the data is gone)")
        }
        let bar = ProgressLine(enabled: Terminal.stderrIsTerminal)
        session.progress = { event in
            switch event {
            case .pulled(let n): bar.show("pulled \(Plural.count(n, "event"))")
            case .pushed(let done, let total): bar.show("pushed \(done)/\(total) records")
            }
        }
        // A short log's records pass by the session (it reads them anyway): the projection is
        // folded from them, as `merge` folds it, instead of reading the log back afterwards.
        var fold = CompletionsProjection()
        session.observe = { fold.apply($0, trackDirty: false) }
        let (report, ledger) = try await session.run(opening: {
            defer { opened = nil }
            return try opened ?? options.open()
        }, derivedFiles: [LedgerFiles.projection], rehome: rehome)
        defer { ledger.close() }
        bar.finish()
        if let token, !token.isEmpty, !noSaveToken { try SyncToken.save(token, ledgerDirectory: ledger.directory) }
        // The records are synced either way: a sealed name that did not go is sent by the next sync.
        do { try await DeviceNameSealing.nameIfOwed(encryption, ledger: ledger, connection: connection) } catch {
            Terminal.error("warning: this device's sealed name was not sent to the server (the next sync sends it): \(error)")
        }
        if let change = report.reidentified, change.oldDevice != ledger.localDevice, change.newDevice != ledger.localDevice {
            print("device \(change.oldDevice)'s events #\(change.firstSeq)–#\(change.lastSeq), received from a copied ledger, now belong to the new device id \(change.newDevice); the old segments are in \(change.quarantine)/")
        } else if let change = report.reidentified {
            print("this ledger was a copy of another replica: device \(change.oldDevice)'s events #\(change.firstSeq)–#\(change.lastSeq) now belong to its new device id \(change.newDevice); the old segments are in \(change.quarantine)/")
        }
        if report.pulled > 0 || report.reidentified != nil {
            // Events came in: the carry-overs they make owed are appended before the save.
            var projection = report.observedWholeLog && report.reidentified == nil
                ? ProjectionUpdater.adopt(fold, of: ledger) : try ProjectionUpdater.load(ledger)
            try CarryOverPlanner.settle(ledger, projection: &projection)
            ProjectionUpdater.saveAfterAppend(&projection, ledger: ledger)
        }
        let words = Words(language.language)
        print(words.synced(with: server, pulled: report.pulled, pushed: report.pushed, newConflicts: report.newConflicts.count,
                           catalogueVersion: report.catalogVersion, retries: report.retries))
        ConflictText(names: ledger.deviceNameTable, labels: StationLabel(ledger: ledger), words: words).printSome(report.newConflicts)
        if encryption.keys != nil { KitRehearsal.askIfOwed(ledgerDirectory: ledger.directory) }
    }
}

extension Sync {
    /// The server of the ledger's last successful sync (`sync-state.json`).
    static func rememberedServer(ledgerDirectory: String) throws -> String {
        let state = try SyncState.read(directory: ledgerDirectory, fileSystem: PosixFileSystem())
        guard let server = state.server, !server.isEmpty else {
            throw LedgerError(.usage, "this ledger has no server to sync with yet: pass --server URL (kept after the first successful sync)")
        }
        return server
    }
}

/// A one-line progress display on stderr, redrawn in place; silent when stderr is not a terminal.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private var shown = false
    init(enabled: Bool) { self.enabled = enabled }

    func show(_ text: String) {
        guard enabled else { return }
        Terminal.write(fd: STDERR_FILENO, "\r\u{1B}[K" + text)
        shown = true
    }

    func finish() {
        if shown { Terminal.write(fd: STDERR_FILENO, "\r\u{1B}[K") }
    }
}

