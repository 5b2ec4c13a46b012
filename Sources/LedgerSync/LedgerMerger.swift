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

/// Merging is set union of events identified by (device, seq) (Schemas/merge.md). Every path
/// admits received events through `MergeAdmission` and appends what it admitted with `apply`;
/// every check runs before the first write, so a refused merge leaves the ledger untouched.
package enum LedgerMerger {
    // MARK: - Received records

    /// Admits `incoming` (records received over the wire, or re-appended by a repair) into
    /// `ledger`: held copies are compared with the log first (one scan, only if any arrived),
    /// then `MergeAdmission.admit`'s checks run. Throws, writing nothing, on any refusal.
    package static func prepare(_ incoming: EncodedRecords, for ledger: Ledger,
                                options: MergeOptions = MergeOptions()) throws -> AdmittedBatch {
        var admission = MergeAdmission(into: MergeAdmission.Receiver(ledger), options: options, expectingBytes: incoming.bytes.count)
        try incoming.forEach { try admission.receive($0) }
        try admission.checkStored(in: ledger)
        var admitted = try admission.admit()
        admitted.keepFrames(of: incoming)
        return admitted
    }

    /// The same for decoded records.
    package static func prepare(_ incoming: [LedgerRecord], for ledger: Ledger,
                                options: MergeOptions = MergeOptions()) throws -> AdmittedBatch {
        try prepare(EncodedRecords(incoming), for: ledger, options: options)
    }

    /// Appends an admitted batch in durable batches (one fsync each), with the local device's
    /// knowledge mark after each that brought station edits; new conflicts are counted (one scan
    /// of the affected stations' events before the append) when `options.countsConflicts`.
    /// `observe` sees every appended record in log order (before the batch is durable; a failed
    /// append throws).
    @discardableResult
    package static func apply(_ admitted: AdmittedBatch, to ledger: Ledger, options: MergeOptions = MergeOptions(),
                              progress: ((Int) -> Void)? = nil, observe: (RecordView) -> Void = { _ in }) throws -> MergeReport {
        var detector: ConflictDetector?
        if options.countsConflicts && !admitted.isEmpty {
            var affected = StationBitmap()
            admitted.forEachEvent { if $0.kind == .stationEdit { affected.insert($0.station) } }
            if !affected.isEmpty {
                var scan = ConflictDetector(stations: affected, deduplicates: false)
                try ledger.forEachRecord { view, _ in scan.add(view) }
                detector = scan
            }
        }
        // Two threads only where the local merge would use them.
        var options = options
        options.runsSideBySide = options.runsSideBySide && UInt64(admitted.eventCount) >= options.sideBySideMinimum
        return try apply(admitted, to: ledger, options: options, detector: detector.take(), progress: progress, observe: observe)
    }

    /// The local device's knowledge mark for a batch (Schemas/merge.md §5): its next seq, an hlc
    /// past the batch's, and what it now holds of every other device.
    static func knowledgeMark(of ledger: Ledger, knowing knowledge: [DeviceID: UInt64],
                                      after maxHLC: HybridTimestamp) -> KnowledgeMark {
        let local = ledger.localDevice
        var others = knowledge
        others[local] = nil
        return KnowledgeMark(id: EventID(device: local, seq: (ledger.versionVector[local] ?? 0) + 1),
                             hlc: .next(after: maxHLC, wallClock: ledger.clock.nowMilliseconds()), knowledge: others)
    }

    /// The conflicts that appending the events beyond `held` created (a sync: the ledger is
    /// locked, so every event it gained since `held` was appended by it): exactly those with at
    /// least one side among them. (A conflict between two events held before existed before with
    /// the same winner, since that winner is still the greatest; and any conflict whose winner
    /// changed now has an appended winner.) One scan of the log.
    package static func newConflicts(in ledger: Ledger, stations: Set<UInt32>, newSince held: [DeviceID: UInt64]) throws -> ConflictList {
        guard !stations.isEmpty else { return ConflictList() }
        var detector = ConflictDetector(stations: stations, deduplicates: false)
        try ledger.forEachRecord { view, _ in detector.add(view) }
        return detector.conflictList(newSince: held)
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
        try appendKnowledgeMark(ledger)
        return true
    }

    /// Appends a knowledge mark of the local device recording what the ledger holds now (for a
    /// caller that knows one is owed: it just appended other devices' edits).
    @discardableResult
    package static func appendKnowledgeMark(_ ledger: Ledger) throws -> KnowledgeMark {
        let local = ledger.localDevice
        var knowledge = ledger.versionVector
        knowledge[local] = nil
        let mark = KnowledgeMark(id: EventID(device: local, seq: (ledger.versionVector[local] ?? 0) + 1),
                                 hlc: ledger.nextLocalHLC(), knowledge: knowledge)
        try ledger.append([.knowledgeMark(mark)])
        return mark
    }

}
