import Foundation
import LedgerCore
import LedgerSync
import SyncClient

/// What the server holds for one user, as the checks see it: every event's fingerprint, how many
/// events came more than once, and the folded projection.
struct ServerLedger {
    var events: [EventID: UInt64] = [:]
    var duplicates = 0
    var projection: [UInt32: CompletionRegister] = [:]

    private mutating func add(_ record: LedgerRecord, fingerprint: UInt64) {
        guard let id = record.eventID else { return }
        if events.updateValue(fingerprint, forKey: id) != nil { duplicates += 1 }
        if case .stationEdit(let edit) = record { projection[edit.station, default: CompletionRegister()].apply(edit) }
    }

    /// The files store: the user's ledger directory, read with the library after the server stopped.
    static func read(directory: String) throws -> ServerLedger {
        guard FileManager.default.fileExists(atPath: directory) else { return ServerLedger() }
        let opened = try Ledger.open(directory: directory)
        defer { opened.close() }
        return try fold(opened)
    }

    /// The events of an open ledger (a server's, or a client's to compare with it).
    static func fold(_ opened: Ledger) throws -> ServerLedger {
        var ledger = ServerLedger()
        try opened.forEachRecord { view, _ in
            guard view.hasEventID else { return }
            ledger.add(view.record, fingerprint: RecordFingerprint.of(view))
        }
        return ledger
    }

    /// Any store, as a new client sees it: a full pull (empty version vector) page after page,
    /// each page from the next instance in `connections`.
    static func pull(_ connections: [SyncConnection]) async throws -> ServerLedger {
        var ledger = ServerLedger()
        var cursor: UInt64?
        var page = 0
        while true {
            let response = try await connections[page % connections.count].pull(
                PullRequest(have: WireVersionVector.encode([:]), cursor: cursor, limit: 2_000))
            for wire in response.records {
                let record = try wire.record()
                ledger.add(record, fingerprint: RecordFingerprint.of(record))
            }
            page += 1
            cursor = response.cursor
            if !response.more { return ledger }
        }
    }
}
