import LedgerCore

/// The local merge (Schemas/merge.md §7): another ledger's records, kept as their bytes.
extension LedgerMerger {
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
        var admission = MergeAdmission(into: MergeAdmission.Receiver(ledger), options: options, expecting: expected)
        let affected = try scanIncoming(other, into: &admission, overlap: &overlap)
        let admitted = try admission.admit()
        let counting = options.countsConflicts && !affected.isEmpty
        // Not reserved: it keeps only the affected stations' edits, a share nothing tells yet.
        var detector: ConflictDetector? = counting ? ConflictDetector(stations: affected, deduplicates: false) : nil
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
            if let differing { throw RecordChecks.differs(differing) }
        }
        return try apply(admitted, to: ledger, options: options, detector: detector.take(), progress: progress,
                         observe: observe)
    }

    /// Reads every record of `other` into `admission`: what this ledger lacks as new events, the
    /// events both hold fingerprinted in `overlap` (dense per device: cheaper than the
    /// admission's own per-id fingerprints). Returns the stations the new events edit.
    static func scanIncoming(_ other: Ledger, into admission: inout MergeAdmission,
                             overlap: inout OverlapFingerprints) throws -> StationBitmap {
        var affected = StationBitmap()
        try other.forEachRecord { view, _ in
            guard view.hasEventID else {
                admission.receiveName(DeviceNameRecord(device: view.device, hlc: view.hlc, name: view.deviceName))
                return
            }
            if overlap.record(view) {
                admission.countHeldCopy()
                return
            }
            admission.receiveNew(view)
            if view.kind == .stationEdit { affected.insert(view.station) }
        }
        return affected
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
        let receiver = MergeAdmission.Receiver(ledger)
        // Filled in place on this thread: a copy held anywhere else would make its first
        // mutation after the scans copy every edit.
        var detector = ConflictDetector(stations: nil as StationBitmap?, deduplicates: false)
        detector.reserve(UInt64(ledger.eventCount) + expected.reduce(0) { $0 + $1.1 })
        // The other log is read on the second thread through a handle of its own.
        let otherCopy = other.readingCopy()
        let (fromOther, fromLedger) = SideBySide.run(
            background: {
                Result { () throws -> (AdmittedBatch, StationBitmap, OverlapFingerprints) in
                    var overlap = OverlapFingerprints(shared)
                    var admission = MergeAdmission(into: receiver, options: options, expecting: expected)
                    let affected = try scanIncoming(otherCopy, into: &admission, overlap: &overlap)
                    return (try admission.admit(), affected, overlap)
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
        let (admitted, affected, theirPrints) = try fromOther.get()
        let myPrints = try fromLedger.get()
        if let id = theirPrints.firstDifference(from: myPrints) { throw RecordChecks.differs(id) }
        return try apply(admitted, to: ledger, options: options,
                         detector: affected.isEmpty ? nil : consume detector, progress: progress, observe: observe)
    }
}
