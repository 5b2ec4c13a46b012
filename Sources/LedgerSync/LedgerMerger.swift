import LedgerCore

/// How a merge checks and writes what it receives.
package struct MergeOptions: Sendable {
    /// Events more than this far ahead of the receiver's clock are refused (one day).
    package var maximumClockLead: Int64 = 86_400_000
    /// Records per durable batch (one fsync each).
    package var batchSize = 20_000
    package var stations: any StationDirectory = AnyPositiveStation()
    /// Devices write a knowledge mark after a batch that brought station edits; the server,
    /// which edits nothing, does not.
    package var writesKnowledgeMarks = true
    /// Compare conflicts before and after to report the new ones (costs one scan).
    package var countsConflicts = true

    package init() {}
}

/// What a merge did.
package struct MergeReport: Sendable, Equatable {
    /// Events appended (station edits, catalogue versions and other devices' knowledge marks).
    package var eventsIn = 0
    /// Newer device names appended.
    package var namesIn = 0
    /// Incoming events this ledger already held (identical copies).
    package var duplicates = 0
    package var batches = 0
    package var marksWritten = 0
    /// Conflicts that did not exist before this merge.
    package var newConflicts: [Conflict] = []

    package init() {}
}

/// Incoming records after checking: what to append, in order.
package struct PreparedMerge: Sendable {
    /// New events, sorted by (device, seq), each continuing its device's seq.
    package var events: [LedgerRecord] = []
    /// Device names newer than the ones held.
    package var names: [DeviceNameRecord] = []
    package var duplicates = 0
    package var isEmpty: Bool { events.isEmpty && names.isEmpty }
}

/// Merging is set union of events identified by (device, seq) (Schemas/merge.md). Every check
/// runs before the first write, so a refused merge leaves the ledger untouched.
package enum LedgerMerger {
    // MARK: - Checking

    /// Checks `incoming` against `ledger`: a held id with different content, a duplicate id
    /// with different content, a gap in a device's seqs, an invalid or unknown-station edit, or
    /// a time too far ahead of the ledger's clock all throw and nothing is written.
    package static func prepare(_ incoming: [LedgerRecord], for ledger: Ledger,
                                options: MergeOptions = MergeOptions()) throws -> PreparedMerge {
        let held = ledger.versionVector
        var fresh: [EventID: (LedgerRecord, UInt64)] = [:]
        var overlap: [EventID: UInt64] = [:]
        var names: [DeviceID: DeviceNameRecord] = [:]
        var result = PreparedMerge()
        let nameOf = { (device: DeviceID) -> String in
            if let name = names[device]?.name ?? ledger.deviceNames[device]?.name { return "'\(name)' (\(device))" }
            return "\(device)"
        }
        for record in incoming {
            if case .deviceName(let name) = record {
                if let other = names[name.device], other.hlc >= name.hlc { continue }
                names[name.device] = name
                continue
            }
            guard let id = record.eventID else { continue }
            let print = RecordFingerprint.of(record)
            if id.seq <= held[id.device] ?? 0 {
                if let other = overlap[id], other != print { throw differs(id) }
                overlap[id] = print
                result.duplicates += 1
                continue
            }
            if let other = fresh[id] {
                guard other.1 == print else { throw differs(id) }
                continue
            }
            fresh[id] = (record, print)
        }
        if !overlap.isEmpty {
            try ledger.forEachRecord { view, _ in
                guard view.hasEventID, let print = overlap[view.eventID] else { return }
                if print != RecordFingerprint.of(view) { throw differs(view.eventID) }
            }
        }

        let now = ledger.clock.nowMilliseconds()
        let limit = now + options.maximumClockLead
        func checkClock(_ hlc: HybridTimestamp, _ device: DeviceID) throws {
            guard hlc.milliseconds <= limit else {
                throw LedgerError(.conflict, "device \(nameOf(device)) sent events dated \(hlc), more than a day ahead of this clock (\(HybridTimestamp(milliseconds: now))); its user must fix that device's clock (or, if this clock is the wrong one, fix this one), then merge again; nothing was written")
            }
        }
        var events = fresh.values.map(\.0)
        events.sort { $0.eventID! < $1.eventID! }
        var next: [DeviceID: UInt64] = [:]
        for record in events {
            let id = record.eventID!
            let expected = (next[id.device] ?? held[id.device] ?? 0) + 1
            guard id.seq == expected else {
                throw LedgerError(.conflict, "device \(nameOf(id.device))'s events jump from seq \(expected - 1) to \(id.seq); the missing events must come first; nothing was written")
            }
            next[id.device] = id.seq
            try checkClock(record.hlc, id.device)
            if case .stationEdit(let edit) = record {
                do { try Ledger.validate(edit) } catch let error as LedgerError {
                    throw LedgerError(.badInput, "event \(id): \(error.message); nothing was written")
                }
                guard options.stations.isKnown(edit.station) else {
                    throw LedgerError(.badInput, "event \(id) is for station \(edit.station), which the catalogue does not know; nothing was written")
                }
            }
        }
        result.events = events
        for name in names.values.sorted(by: { $0.device < $1.device }) {
            try checkClock(name.hlc, name.device)
            if let current = ledger.deviceNames[name.device], current.hlc >= name.hlc { continue }
            result.names.append(name)
        }
        return result
    }

    private static func differs(_ id: EventID) -> LedgerError {
        LedgerError(.conflict, "event \(id) exists on both sides with different content (a corrupt or forged replica); the merge was refused and nothing was written")
    }

    // MARK: - Writing

    /// Appends a prepared merge in durable batches (one fsync each). After each batch that
    /// brought station edits, the local device records a knowledge mark in the same batch.
    @discardableResult
    package static func apply(_ prepared: PreparedMerge, to ledger: Ledger, options: MergeOptions = MergeOptions(),
                              observer: (any MergeObserver)? = nil,
                              progress: ((Int) -> Void)? = nil) throws -> MergeReport {
        var report = MergeReport()
        report.duplicates = prepared.duplicates
        guard !prepared.isEmpty else { return report }

        var affected: Set<UInt32> = []
        var appended: Set<EventID> = []
        for case .stationEdit(let e) in prepared.events {
            affected.insert(e.station)
            appended.insert(e.id)
        }
        let counting = options.countsConflicts && !affected.isEmpty

        var pendingNames = prepared.names.map { LedgerRecord.deviceName($0) }
        var start = 0
        let batchSize = max(1, options.batchSize)
        repeat {
            let end = min(prepared.events.count, start + batchSize)
            var batch = Array(prepared.events[start..<end])
            batch.append(contentsOf: pendingNames)
            pendingNames = []
            let bringsEdits = batch.contains { if case .stationEdit = $0 { return true } else { return false } }
            if options.writesKnowledgeMarks && bringsEdits {
                var knowledge = ledger.versionVector
                var maxHLC = ledger.lastHLC
                for record in batch {
                    maxHLC = max(maxHLC, record.hlc)
                    if let id = record.eventID { knowledge[id.device] = max(knowledge[id.device] ?? 0, id.seq) }
                }
                let local = ledger.localDevice
                knowledge[local] = nil
                let mark = KnowledgeMark(
                    id: EventID(device: local, seq: (ledger.versionVector[local] ?? 0) + 1),
                    hlc: .next(after: maxHLC, wallClock: ledger.clock.nowMilliseconds()), knowledge: knowledge)
                batch.append(.knowledgeMark(mark))
                report.marksWritten += 1
            }
            try ledger.appendReplicated(batch)
            report.batches += 1
            report.eventsIn += end - start
            try observer?.ledger(ledger, didAppend: batch)
            progress?(end)
            start = end
        } while start < prepared.events.count
        report.namesIn = prepared.names.count

        if counting {
            report.newConflicts = try newConflicts(in: ledger, stations: affected, appended: appended)
        }
        return report
    }

    /// The conflicts that appending `appended` created: exactly those with at least one side
    /// among them. (A conflict between two events held before existed before with the same
    /// winner, since that winner is still the greatest; and any conflict whose winner changed
    /// now has an appended winner.) One scan of the log.
    package static func newConflicts(in ledger: Ledger, stations: Set<UInt32>, appended: Set<EventID>) throws -> [Conflict] {
        guard !appended.isEmpty else { return [] }
        return try ledger.conflicts(stations: stations)
            .filter { appended.contains($0.winner.id) || appended.contains($0.loser.id) }
    }

    // MARK: - Knowledge marks

    /// Appends a knowledge mark of the local device if the log holds another device's station
    /// edit after the local device's last mark (or with no mark at all): this catches up after
    /// a sync that appended pages without marks, or one interrupted before its mark. Returns
    /// whether a mark was written. One scan of the log.
    @discardableResult
    package static func appendKnowledgeMarkIfOwed(_ ledger: Ledger) throws -> Bool {
        let local = ledger.localDevice
        var lastMark: UInt64?
        var lastForeignEdit: UInt64?
        try ledger.forEachRecord { view, position in
            switch view.kind {
            case .knowledgeMark where view.device == local: lastMark = position
            case .stationEdit where view.device != local: lastForeignEdit = position
            default: break
            }
        }
        guard let edit = lastForeignEdit, edit > lastMark ?? 0 || lastMark == nil else { return false }
        var knowledge = ledger.versionVector
        knowledge[local] = nil
        let mark = KnowledgeMark(id: EventID(device: local, seq: (ledger.versionVector[local] ?? 0) + 1),
                                 hlc: ledger.nextLocalHLC(), knowledge: knowledge)
        try ledger.appendReplicated([.knowledgeMark(mark)])
        return true
    }

    // MARK: - Local merge

    /// Merges every event of `other` that `ledger` lacks. Events both hold are compared
    /// (fingerprints of their encodings); any difference refuses the whole merge.
    @discardableResult
    package static func merge(from other: Ledger, into ledger: Ledger, options: MergeOptions = MergeOptions(),
                              observer: (any MergeObserver)? = nil,
                              progress: ((Int) -> Void)? = nil) throws -> MergeReport {
        let held = ledger.versionVector
        var overlapLimit: [DeviceID: UInt64] = [:]
        for (device, seq) in other.versionVector {
            let both = min(seq, held[device] ?? 0)
            if both > 0 { overlapLimit[device] = both }
        }
        var mine: [EventID: UInt64] = [:]
        if !overlapLimit.isEmpty {
            try ledger.forEachRecord { view, _ in
                guard view.hasEventID, view.seq <= overlapLimit[view.device] ?? 0 else { return }
                mine[view.eventID] = RecordFingerprint.of(view)
            }
        }
        var incoming: [LedgerRecord] = []
        var duplicates = 0
        try other.forEachRecord { view, _ in
            if !view.hasEventID {
                incoming.append(view.record)
                return
            }
            let id = view.eventID
            if id.seq <= overlapLimit[id.device] ?? 0 {
                guard mine[id] == RecordFingerprint.of(view) else { throw differs(id) }
                duplicates += 1
            } else if id.seq > held[id.device] ?? 0 {
                incoming.append(view.record)
            }
        }
        var prepared = try prepare(incoming, for: ledger, options: options)
        prepared.duplicates += duplicates
        return try apply(prepared, to: ledger, options: options, observer: observer, progress: progress)
    }
}
