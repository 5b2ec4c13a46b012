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
    /// Conflicts that did not exist before this merge (built one by one as they are read).
    package var newConflicts = ConflictList()

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
                guard fresh[keys[i - 1].2] == fresh[key.2] else { throw RecordChecks.differsWithin(fresh[key.2].eventID!) }
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

    /// The local device's knowledge mark for a batch (Schemas/merge.md §5): its next seq, an hlc
    /// past the batch's, and what it now holds of every other device.
    private static func knowledgeMark(of ledger: Ledger, knowing knowledge: [DeviceID: UInt64],
                                      after maxHLC: HybridTimestamp) -> KnowledgeMark {
        let local = ledger.localDevice
        var others = knowledge
        others[local] = nil
        return KnowledgeMark(id: EventID(device: local, seq: (ledger.versionVector[local] ?? 0) + 1),
                             hlc: .next(after: maxHLC, wallClock: ledger.clock.nowMilliseconds()), knowledge: others)
    }

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

        let heldBefore = ledger.versionVector
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
                batch.append(.knowledgeMark(knowledgeMark(of: ledger, knowing: knowledge, after: maxHLC)))
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
            if detector == nil {
                var scan = ConflictDetector(stations: affected, deduplicates: false)
                try ledger.forEachRecord { view, _ in scan.add(view) }
                detector = scan
            }
            report.newConflicts = detector!.conflictList(newSince: heldBefore)
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
    /// Two scans in all: `other` once, for what it holds beyond this ledger (kept as encoded
    /// bytes, appended as they are) and the fingerprints of the events both hold; then this
    /// ledger once, before anything is written, to compare those and to collect the affected
    /// stations' events for conflict detection.
    ///
    @discardableResult
    package static func merge(from other: Ledger, into ledger: Ledger, options: MergeOptions = MergeOptions(),
                              progress: ((Int) -> Void)? = nil) throws -> MergeReport {
        try merge(from: other, into: ledger, options: options, progress: progress, observes: false) { _ in }
    }

    /// The same; `observe` sees every record this ledger held before the merge (in its scan)
    /// and every record appended, so that a caller folds its projection from them instead of
    /// reading the log a third time. (Not escaping: a captured fold is then accessed without
    /// run-time exclusivity checks, which cost more than the fold.)
    @discardableResult
    package static func merge(from other: Ledger, into ledger: Ledger, options: MergeOptions = MergeOptions(),
                              progress: ((Int) -> Void)? = nil, observe: (RecordView) -> Void) throws -> MergeReport {
        try merge(from: other, into: ledger, options: options, progress: progress, observes: true, observe)
    }

    private static func merge(from other: Ledger, into ledger: Ledger, options: MergeOptions,
                              progress: ((Int) -> Void)?, observes: Bool,
                              _ observe: (RecordView) -> Void) throws -> MergeReport {
        let held = ledger.versionVector
        // Both hold each device's seqs 1…min(theirs, mine); `other` holds `expected` events per
        // device that this ledger lacks.
        var shared: [(DeviceID, UInt64)] = []
        var expected: [(DeviceID, UInt64)] = []
        for (device, seq) in other.versionVector {
            let mine = held[device] ?? 0
            if min(seq, mine) > 0 { shared.append((device, min(seq, mine))) }
            if seq > mine { expected.append((device, seq - mine)) }
        }
        let incomingBound = expected.reduce(0) { $0 + $1.1 }
        if options.countsConflicts && options.runsSideBySide && incomingBound >= options.sideBySideMinimum
            && SideBySide.isWorthwhile {
            return try mergeSideBySide(from: other, into: ledger, options: options, shared: shared,
                                       expected: expected, progress: progress, observe)
        }
        var overlap = OverlapFingerprints(shared)
        let scanned = try scanIncoming(other, held: held, expected: expected, overlap: &overlap)
        let prepared = try prepareEncoded(scanned, for: Receiver(ledger), options: options)
        let counting = options.countsConflicts && !scanned.affected.isEmpty
        // Not reserved: it keeps only the affected stations' edits, a share nothing tells yet.
        var detector: ConflictDetector? = counting ? ConflictDetector(stations: scanned.affected, deduplicates: false) : nil
        if !overlap.isEmpty || detector != nil || observes {
            // The lowest differing id is named, as when both logs are read at once.
            var differing: EventID?
            try ledger.forEachRecord { view, _ in
                if !overlap.matches(view), differing.map({ (view.device, view.seq) < ($0.device, $0.seq) }) ?? true {
                    differing = view.eventID
                }
                detector?.add(view)
                observe(view)
            }
            if let differing { throw differs(differing) }
        }
        return try applyEncoded(prepared, to: ledger, options: options, detector: detector.take(), progress: progress,
                                observe: observe)
    }

    /// What a scan of the other ledger found: the events this ledger lacks, the newest name of
    /// each device, the stations those events edit, and how many events both hold.
    struct ScannedIncoming {
        var incoming = IncomingRecords()
        var names: [DeviceID: DeviceNameRecord] = [:]
        var affected = StationBitmap()
        var duplicates = 0
    }

    /// Reads every record of `other`: keeps what this ledger (holding `held`) lacks (about
    /// `expected` events per device), and records the fingerprints of the events both hold in
    /// `overlap`.
    static func scanIncoming(_ other: Ledger, held: [DeviceID: UInt64], expected: [(DeviceID, UInt64)],
                             overlap: inout OverlapFingerprints) throws -> ScannedIncoming {
        var scanned = ScannedIncoming()
        scanned.incoming = IncomingRecords(expecting: expected)
        var runDevice: UInt64 = 0
        var runHeld: UInt64 = 0
        try other.forEachRecord { view, _ in
            guard view.hasEventID else {
                // The newest name of each device (the first of equal ones), as `prepare` keeps it.
                if let known = scanned.names[view.device], known.hlc >= view.hlc { return }
                scanned.names[view.device] = DeviceNameRecord(device: view.device, hlc: view.hlc, name: view.deviceName)
                return
            }
            if overlap.record(view) {
                scanned.duplicates += 1
                return
            }
            let device = view.device.rawValue
            if device != runDevice {
                runDevice = device
                runHeld = held[view.device] ?? 0
            }
            guard view.seq > runHeld else { return }
            scanned.incoming.add(view)
            if view.kind == .stationEdit { scanned.affected.insert(view.station) }
        }
        return scanned
    }

    /// A large merge with a second core: the two logs are read at once, and later the new
    /// events are appended while the conflicts are found (Schemas/merge.md §7). This ledger's
    /// scan cannot know yet which stations the other brings, so it keeps the edits of every
    /// station (a new conflict still needs a new side: the result is the same), and each side
    /// fingerprints the events both hold, compared once both scans are done. Checks and
    /// errors come in the sequential merge's order: the other ledger's, then §2's, then this
    /// ledger's.
    private static func mergeSideBySide(from other: Ledger, into ledger: Ledger, options: MergeOptions,
                                        shared: [(DeviceID, UInt64)], expected: [(DeviceID, UInt64)],
                                        progress: ((Int) -> Void)?,
                                        _ observe: (RecordView) -> Void) throws -> MergeReport {
        let receiver = Receiver(ledger)
        // Filled in place on this thread: a copy held anywhere else would make its first
        // mutation after the scans copy every edit.
        var detector = ConflictDetector(stations: nil as StationBitmap?, deduplicates: false)
        detector.reserve(UInt64(ledger.eventCount) + expected.reduce(0) { $0 + $1.1 })
        // The other log is read on the second thread through a handle of its own.
        let otherCopy = other.readingCopy()
        let (fromOther, fromLedger) = SideBySide.run(
            background: {
                Result { () throws -> (PreparedEncodedMerge, StationBitmap, OverlapFingerprints) in
                    var overlap = OverlapFingerprints(shared)
                    let scanned = try scanIncoming(otherCopy, held: receiver.held, expected: expected, overlap: &overlap)
                    return (try prepareEncoded(scanned, for: receiver, options: options), scanned.affected, overlap)
                }
            },
            foreground: {
                Result { () throws -> OverlapFingerprints in
                    var overlap = OverlapFingerprints(shared)
                    try ledger.forEachRecord { view, _ in
                        if view.hasEventID { _ = overlap.record(view) }
                        detector.add(view)
                        observe(view)
                    }
                    return overlap
                }
            })
        let (prepared, affected, theirPrints) = try fromOther.get()
        let myPrints = try fromLedger.get()
        if let id = theirPrints.firstDifference(from: myPrints) { throw differs(id) }
        return try applyEncoded(prepared, to: ledger, options: options,
                                detector: affected.isEmpty ? nil : consume detector, progress: progress,
                                observe: observe)
    }

    /// A local merge's incoming records after checking.
    struct PreparedEncodedMerge {
        var incoming: IncomingRecords
        /// The new events, sorted by (device, seq): (offset, length) in `incoming.bytes`.
        var order: [(offset: Int, length: Int)]
        var names: [DeviceNameRecord]
        var duplicates = 0
        var isEmpty: Bool { order.isEmpty && names.isEmpty }

        /// The new events, in (device, seq) order.
        func forEachEvent(_ body: (RecordView) -> Void) {
            incoming.bytes.withUnsafeBytes { buffer in
                for (offset, length) in order { body(RecordView(validated: buffer.baseAddress! + offset, length: length)) }
            }
        }
    }

    /// What the checks need of the receiving ledger, taken before anything runs side by side.
    struct Receiver {
        var held: [DeviceID: UInt64]
        var deviceNames: [DeviceID: DeviceNameRecord]
        var now: Int64

        init(_ ledger: Ledger) {
            held = ledger.versionVector
            deviceNames = ledger.deviceNames
            now = ledger.clock.nowMilliseconds()
        }
    }

    /// `prepare`'s checks, in its order, for records kept as bytes: seq continuity, the clock
    /// and the content of every new event in (device, seq) order, then the device names.
    static func prepareEncoded(_ scanned: ScannedIncoming, for receiver: Receiver,
                               options: MergeOptions) throws -> PreparedEncodedMerge {
        let incoming = scanned.incoming, names = scanned.names
        let nameOf = { (device: DeviceID) -> String in
            if let name = names[device]?.name ?? receiver.deviceNames[device]?.name { return "'\(name)' (\(device))" }
            return "\(device)"
        }
        let order = incoming.sorted()
        let now = receiver.now
        var continuity = SeqContinuity(held: receiver.held)
        try incoming.bytes.withUnsafeBytes { buffer in
            for (offset, length) in order {
                let view = RecordView(validated: buffer.baseAddress! + offset, length: length)
                let id = view.eventID
                if let gap = continuity.accept(id) {
                    throw LedgerError(.conflict, "\(gap.message(device: nameOf(id.device))); nothing was written")
                }
                try RecordChecks.checkClock(view.hlc, device: nameOf(id.device), now: now, options: options)
                try RecordChecks.checkContent(view, options: options)
            }
        }
        var result = PreparedEncodedMerge(incoming: incoming, order: order, names: [], duplicates: scanned.duplicates)
        for name in names.values.sorted(by: { $0.device < $1.device }) {
            try RecordChecks.checkClock(name.hlc, device: nameOf(name.device), now: now, options: options)
            if let current = receiver.deviceNames[name.device], current.hlc >= name.hlc { continue }
            result.names.append(name)
        }
        return result
    }

    /// `apply` for records kept as bytes: the same batches, names and knowledge marks, each
    /// batch appended as bytes. `detector` (this ledger's events: of the affected stations, or of
    /// every station when both logs were read at once) gets every new event, and `observe` every
    /// appended record.
    ///
    /// With a second core the conflicts are found while the batches are written. The detector
    /// then takes the new events from `prepared` instead of from the appended records: the
    /// difference is the merge's own knowledge marks, which could only bear on the local
    /// device's later edits (§3), and there are none in the set unless the other ledger
    /// brings edits of this device, in which case the detector follows the appends as before.
    static func applyEncoded(_ prepared: PreparedEncodedMerge, to ledger: Ledger, options: MergeOptions,
                             detector: consuming ConflictDetector?, progress: ((Int) -> Void)?,
                             observe: (RecordView) -> Void) throws -> MergeReport {
        guard !prepared.isEmpty else {
            var report = MergeReport()
            report.duplicates = prepared.duplicates
            return report
        }
        let heldBefore = ledger.versionVector
        // Taken out, not copied: the edits must stay uniquely referenced to be added to in place.
        guard var detector = detector.take() else {
            return try appendEncoded(prepared, to: ledger, options: options, progress: progress, observe: observe)
        }
        if options.runsSideBySide && SideBySide.isWorthwhile && !prepared.incoming.holds(ledger.localDevice) {
            let handed = Handed(consume detector)
            let (grouped, appended) = SideBySide.run(
                background: { () -> ConflictDetector in
                    prepared.forEachEvent { handed.value!.add($0) }
                    handed.value!.prepareToCollect()
                    return handed.value.take()!
                },
                foreground: {
                    Result { try appendEncoded(prepared, to: ledger, options: options, progress: progress, observe: observe) }
                })
            var report = try appended.get()
            detector = grouped
            report.newConflicts = detector.conflictList(newSince: heldBefore, sideBySide: true)
            return report
        }
        var report = try appendEncoded(prepared, to: ledger, options: options, progress: progress) { view in
            detector.add(view)
            observe(view)
        }
        report.newConflicts = detector.conflictList(newSince: heldBefore)
        return report
    }

    /// Appends a prepared local merge in durable batches, each with its knowledge mark.
    private static func appendEncoded(_ prepared: PreparedEncodedMerge, to ledger: Ledger, options: MergeOptions,
                                      progress: ((Int) -> Void)?,
                                      observe: (RecordView) -> Void) throws -> MergeReport {
        var report = MergeReport()
        report.duplicates = prepared.duplicates
        var pendingNames = prepared.names
        var start = 0
        let batchSize = max(1, options.batchSize)
        var batch: [UInt8] = []
        repeat {
            let end = min(prepared.order.count, start + batchSize)
            batch.removeAll(keepingCapacity: true)
            var bringsEdits = false
            var maxHLC = ledger.lastHLC
            // The batch is sorted by (device, seq): a device's last event in a run is its highest.
            var lastSeqs: [(DeviceID, UInt64)] = []
            prepared.incoming.bytes.withUnsafeBytes { buffer in
                let records = prepared.order[start..<end]
                batch.reserveCapacity(records.reduce(0) { $0 + $1.length } + 4096)
                for (offset, length) in records {
                    let view = RecordView(validated: buffer.baseAddress! + offset, length: length)
                    batch.append(contentsOf: UnsafeRawBufferPointer(start: view.base, count: length))
                    if view.kind == .stationEdit { bringsEdits = true }
                    if view.hlc > maxHLC { maxHLC = view.hlc }
                    if let last = lastSeqs.last, last.0 == view.device {
                        lastSeqs[lastSeqs.count - 1].1 = view.seq
                    } else {
                        lastSeqs.append((view.device, view.seq))
                    }
                }
            }
            var encoder = RecordEncoder()
            for name in pendingNames {
                encoder.append(name)
                maxHLC = max(maxHLC, name.hlc)
            }
            pendingNames = []
            if options.writesKnowledgeMarks && bringsEdits {
                var knowledge = ledger.versionVector
                for (device, seq) in lastSeqs { knowledge[device] = max(knowledge[device] ?? 0, seq) }
                encoder.append(knowledgeMark(of: ledger, knowing: knowledge, after: maxHLC))
                report.marksWritten += 1
            }
            batch.append(contentsOf: encoder.bytes)
            try ledger.appendReplicated(encoded: batch, visit: observe)
            report.batches += 1
            report.eventsIn += end - start
            progress?(end)
            start = end
        } while start < prepared.order.count
        report.namesIn = prepared.names.count
        return report
    }
}
