import LedgerCore

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
        // New events and their sort keys (device, seq, arrival): sorting keys, not records, spares
        // copying records at every step, and equal ids end up side by side.
        var fresh: [LedgerRecord] = []
        var keys: [(UInt64, UInt64, Int)] = []
        var overlap: [EventID: UInt64] = [:]
        // Received events come in runs of one device: one lookup of `held` per run.
        var runDevice: DeviceID?
        var runHeld: UInt64 = 0
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
            if id.device != runDevice {
                runDevice = id.device
                runHeld = held[id.device] ?? 0
            }
            if id.seq <= runHeld {
                let print = RecordFingerprint.of(record)
                if let other = overlap[id], other != print { throw differs(id) }
                overlap[id] = print
                result.duplicates += 1
                continue
            }
            keys.append((id.device.rawValue, id.seq, fresh.count))
            fresh.append(record)
        }
        if !overlap.isEmpty {
            try ledger.forEachRecord { view, _ in
                guard view.hasEventID, let print = overlap[view.eventID] else { return }
                if print != RecordFingerprint.of(view) { throw differs(view.eventID) }
            }
        }

        let now = ledger.clock.nowMilliseconds()
        func checkClock(_ hlc: HybridTimestamp, _ device: DeviceID) throws {
            try RecordChecks.checkClock(hlc, device: nameOf(device), now: now, options: options)
        }
        keys.sort { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        var events: [LedgerRecord] = []
        events.reserveCapacity(keys.count)
        for (i, key) in keys.enumerated() {
            if i > 0, keys[i - 1].0 == key.0, keys[i - 1].1 == key.1 {
                // The same id twice in what was received: identical copies are one event.
                guard fresh[keys[i - 1].2] == fresh[key.2] else { throw differs(fresh[key.2].eventID!) }
                continue
            }
            events.append(fresh[key.2])
        }
        fresh = []
        // Sorted by (device, seq): each device's events form one run.
        var continuity = SeqContinuity(held: held)
        for record in events {
            let id = record.eventID!
            if let gap = continuity.accept(id) {
                throw LedgerError(.conflict, "\(gap.message(device: nameOf(id.device))); nothing was written")
            }
            try checkClock(record.hlc, id.device)
            try RecordChecks.checkContent(record, options: options)
        }
        result.events = events
        for name in names.values.sorted(by: { $0.device < $1.device }) {
            try checkClock(name.hlc, name.device)
            if let current = ledger.deviceNames[name.device], current.hlc >= name.hlc { continue }
            result.names.append(name)
        }
        return result
    }

    private static func differs(_ id: EventID) -> LedgerError { RecordChecks.differs(id) }

    // MARK: - Writing

    /// Appends a prepared merge in durable batches (one fsync each). After each batch that
    /// brought station edits, the local device records a knowledge mark in the same batch.
    ///
    /// `conflictBase`, when given, holds the ledger's events of the affected stations as they were
    /// before the merge (collected during a scan the caller made anyway): new conflicts are then
    /// found from it plus what is appended, without scanning the log again.
    @discardableResult
    package static func apply(_ prepared: PreparedMerge, to ledger: Ledger, options: MergeOptions = MergeOptions(),
                              conflictBase: ConflictDetector? = nil,
                              progress: ((Int) -> Void)? = nil) throws -> MergeReport {
        var report = MergeReport()
        report.duplicates = prepared.duplicates
        guard !prepared.isEmpty else { return report }

        // Few devices: a linear search beats hashing a DeviceID per conflict side.
        let heldBefore = Array(ledger.versionVector)
        let affected = affectedStations(prepared)
        let counting = options.countsConflicts && !affected.isEmpty
        var detector = counting ? conflictBase : nil

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
                // The batch is sorted by (device, seq): a device's last event in a run is its highest.
                var run: EventID?
                for record in batch {
                    maxHLC = max(maxHLC, record.hlc)
                    guard let id = record.eventID else { continue }
                    if let previous = run, previous.device != id.device {
                        knowledge[previous.device] = max(knowledge[previous.device] ?? 0, previous.seq)
                    }
                    run = id
                }
                if let last = run { knowledge[last.device] = max(knowledge[last.device] ?? 0, last.seq) }
                let local = ledger.localDevice
                knowledge[local] = nil
                let mark = KnowledgeMark(
                    id: EventID(device: local, seq: (ledger.versionVector[local] ?? 0) + 1),
                    hlc: .next(after: maxHLC, wallClock: ledger.clock.nowMilliseconds()), knowledge: knowledge)
                batch.append(.knowledgeMark(mark))
                report.marksWritten += 1
            }
            try ledger.appendReplicated(batch)
            if detector != nil { for record in batch { detector!.add(record) } }
            report.batches += 1
            report.eventsIn += end - start
            progress?(end)
            start = end
        } while start < prepared.events.count
        report.namesIn = prepared.names.count

        if counting {
            // Appended events are exactly those past the version vector held before.
            let isAppended = { (id: EventID) -> Bool in
                for (device, seq) in heldBefore where device == id.device { return id.seq > seq }
                return true
            }
            if var detector {
                report.newConflicts = detector.conflicts().filter { isAppended($0.winner.id) || isAppended($0.loser.id) }
            } else {
                report.newConflicts = try ledger.conflicts(stations: affected)
                    .filter { isAppended($0.winner.id) || isAppended($0.loser.id) }
            }
        }
        return report
    }

    /// The stations the prepared events edit.
    package static func affectedStations(_ prepared: PreparedMerge) -> Set<UInt32> {
        var stations: Set<UInt32> = []
        for case .stationEdit(let e) in prepared.events { stations.insert(e.station) }
        return stations
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
    ///
    /// Two scans in all: `other` once, for what it holds beyond this ledger and the fingerprints
    /// of the events both hold; then this ledger once, before anything is written, to compare
    /// those and to collect the affected stations' events for conflict detection.
    @discardableResult
    package static func merge(from other: Ledger, into ledger: Ledger, options: MergeOptions = MergeOptions(),
                              progress: ((Int) -> Void)? = nil) throws -> MergeReport {
        let held = ledger.versionVector
        var overlap = OverlapFingerprints()
        for (device, seq) in other.versionVector {
            let both = min(seq, held[device] ?? 0)
            if both > 0 { overlap.expect(device, upTo: both) }
        }
        var incoming: [LedgerRecord] = []
        var duplicates = 0
        var runDevice: DeviceID?
        var runHeld: UInt64 = 0
        try other.forEachRecord { view, _ in
            guard view.hasEventID else {
                incoming.append(view.record)
                return
            }
            if overlap.record(view) {
                duplicates += 1
                return
            }
            if view.device != runDevice {
                runDevice = view.device
                runHeld = held[view.device] ?? 0
            }
            if view.seq > runHeld { incoming.append(view.record) }
        }
        var prepared = try prepare(incoming, for: ledger, options: options)
        incoming = []
        prepared.duplicates += duplicates
        let affected = affectedStations(prepared)
        var detector: ConflictDetector? = options.countsConflicts && !affected.isEmpty
            ? ConflictDetector(stations: affected, deduplicates: false) : nil
        if !overlap.isEmpty || detector != nil {
            try ledger.forEachRecord { view, _ in
                if !overlap.matches(view) { throw differs(view.eventID) }
                detector?.add(view)
            }
        }
        return try apply(prepared, to: ledger, options: options, conflictBase: detector, progress: progress)
    }
}
