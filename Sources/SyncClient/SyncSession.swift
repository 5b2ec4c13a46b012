import LedgerCore
import LedgerSync

/// What one `sync` did.
package struct SyncReport: Sendable, Equatable {
    package var pulled = 0
    package var pushed = 0
    package var rounds = 0
    package var newConflicts: [Conflict] = []
    /// The newest catalogue version the server knows of, if any.
    package var catalogVersion: UInt32?
    package init() {}
}

/// Progress of a sync, for a terminal progress bar.
package enum SyncProgress: Sendable {
    case pulled(Int)
    case pushed(done: Int, total: Int)
}

/// Pull then push until both sides hold the same set. Every step is idempotent and keyed by
/// version vectors, so an interrupted sync simply resumes where the data says it stopped.
package struct SyncSession {
    package var connection: SyncConnection
    package var options = MergeOptions()
    /// Records per pull page asked for and per push request.
    package var pageSize = 2_000
    package var maximumRounds = 8
    /// Called after every page; throwing from it interrupts the sync (tests use this).
    package var progress: (SyncProgress) throws -> Void = { _ in }

    package init(connection: SyncConnection) { self.connection = connection }

    static let pushBytes = 2 << 20

    package func run(_ ledger: Ledger) async throws -> SyncReport {
        var report = SyncReport()
        // Conflicts are computed once at the end (one scan), not per page.
        var pageOptions = options
        pageOptions.countsConflicts = false
        // One knowledge mark after each round's pull, not one per page (the ledger is locked
        // for the whole sync, so no local edit can fall between pages).
        pageOptions.writesKnowledgeMarks = false
        var affected: Set<UInt32> = []
        var appended: Set<EventID> = []
        while report.rounds < maximumRounds {
            report.rounds += 1
            var serverHas: [DeviceID: UInt64] = [:]
            var cursor: UInt64?
            var pulledThisRound = 0
            while true {
                let page = try await connection.pull(PullRequest(
                    have: WireVersionVector.encode(ledger.versionVector), cursor: cursor, limit: pageSize))
                let records = try page.records.map { try $0.record() }
                let prepared = try LedgerMerger.prepare(records, for: ledger, options: pageOptions)
                let merged = try LedgerMerger.apply(prepared, to: ledger, options: pageOptions)
                pulledThisRound += merged.eventsIn
                for case .stationEdit(let e) in prepared.events {
                    affected.insert(e.station)
                    appended.insert(e.id)
                }
                report.catalogVersion = page.catalogVersion
                serverHas = try WireVersionVector.decode(page.serverHas)
                cursor = page.cursor
                try progress(.pulled(report.pulled + pulledThisRound))
                if !page.more { break }
            }
            report.pulled += pulledThisRound
            if options.writesKnowledgeMarks { try LedgerMerger.appendKnowledgeMarkIfOwed(ledger) }

            var outgoing: [LedgerRecord] = []
            try ledger.forEachRecord { view, _ in
                if view.kind == .deviceName || view.seq > serverHas[view.device] ?? 0 {
                    outgoing.append(view.record)
                }
            }
            let events = outgoing.filter { $0.eventID != nil }.count
            var sent = 0
            var start = 0
            while start < outgoing.count && events > 0 {
                // At most pageSize records and about 2 MiB of JSON (the server's body limit is
                // 8 MiB by default; a memo can be 4 KiB).
                var end = start
                var bytes = 0
                while end < outgoing.count && end - start < pageSize && (bytes < Self.pushBytes || end == start) {
                    bytes += RecordEncoder.encodedSize(of: outgoing[end]) * 2 + 160
                    end += 1
                }
                let reply = try await connection.push(PushRequest(records: outgoing[start..<end].map(WireRecord.init)))
                sent += reply.appended
                start = end
                try progress(.pushed(done: start, total: outgoing.count))
            }
            report.pushed += sent
            if pulledThisRound == 0 && events == 0 { break }
        }
        if options.countsConflicts {
            report.newConflicts = try LedgerMerger.newConflicts(in: ledger, stations: affected, appended: appended)
        }
        return report
    }
}
