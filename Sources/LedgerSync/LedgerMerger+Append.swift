import LedgerCore

extension LedgerMerger {
    /// Appends an admitted batch in durable batches of `options.batchSize` events, each
    /// appended as bytes with the device names (in the first) and the local device's knowledge
    /// mark (when it brought station edits). `detector` (this ledger's events: of the affected stations, or of
    /// every station when both logs were read at once) gets every new event, and `observe` every
    /// appended record.
    ///
    /// With a second core the conflicts are found while the batches are written. The detector
    /// then takes the new events from `admitted` instead of from the appended records: the
    /// difference is the merge's own knowledge marks, which could only bear on the local
    /// device's later edits (§3), and there are none in the set unless the other ledger
    /// brings edits of this device, in which case the detector follows the appends as before.
    static func apply(_ admitted: AdmittedBatch, to ledger: Ledger, options: MergeOptions,
                             detector: consuming ConflictDetector?, progress: ((Int) -> Void)?,
                             observe: (RecordView) -> Void) throws -> MergeReport {
        guard !admitted.isEmpty else {
            var report = MergeReport()
            report.duplicates = admitted.duplicates
            return report
        }
        let heldBefore = ledger.versionVector
        // Taken out, not copied: the edits must stay uniquely referenced to be added to in place.
        guard var detector = detector.take() else {
            return try appendEncoded(admitted, to: ledger, options: options, progress: progress, observe: observe)
        }
        if options.runsSideBySide && SideBySide.isWorthwhile && !admitted.batch.holds(ledger.localDevice) {
            let handed = Handed(consume detector)
            let (grouped, appended) = SideBySide.run(
                background: { () -> ConflictDetector in
                    admitted.forEachEvent { handed.value!.add($0) }
                    handed.value!.prepareToCollect()
                    return handed.value.take()!
                },
                foreground: {
                    Result { try appendEncoded(admitted, to: ledger, options: options, progress: progress, observe: observe) }
                })
            var report = try appended.get()
            detector = grouped
            report.newConflicts = detector.conflictList(newSince: heldBefore, sideBySide: true)
            return report
        }
        var report = try appendEncoded(admitted, to: ledger, options: options, progress: progress) { view in
            detector.add(view)
            observe(view)
        }
        report.newConflicts = detector.conflictList(newSince: heldBefore)
        return report
    }

    /// The append itself, for `apply`.
    private static func appendEncoded(_ admitted: AdmittedBatch, to ledger: Ledger, options: MergeOptions,
                                      progress: ((Int) -> Void)?,
                                      observe: (RecordView) -> Void) throws -> MergeReport {
        var report = MergeReport()
        report.duplicates = admitted.duplicates
        let batchSize = max(1, options.batchSize)
        if let received = admitted.asReceived, !options.writesKnowledgeMarks, admitted.order.count <= batchSize {
            // One durable batch of the frames as they came (Schemas/sync-frames.md).
            try ledger.append(received, visit: observe)
            report.batches = 1
            report.eventsIn = admitted.order.count
            report.namesIn = admitted.names.count
            progress?(admitted.order.count)
            return report
        }
        var pendingNames = admitted.names
        var start = 0
        repeat {
            let end = min(admitted.order.count, start + batchSize)
            var batch = EncodedRecords()
            var bringsEdits = false
            var maxHLC = ledger.lastHLC
            // The batch is sorted by (device, seq): a device's last event in a run is its highest.
            var lastSeqs: [(DeviceID, UInt64)] = []
            admitted.batch.records.bytes.withUnsafeBytes { buffer in
                let records = admitted.order[start..<end]
                batch.reserve(bytes: records.reduce(0) { $0 + $1.length } + 4096)
                for (offset, length) in records {
                    let view = RecordView(validated: buffer.baseAddress! + offset, length: length)
                    batch.append(view)
                    if view.kind == .stationEdit { bringsEdits = true }
                    if view.hlc > maxHLC { maxHLC = view.hlc }
                    if let last = lastSeqs.last, last.0 == view.device {
                        lastSeqs[lastSeqs.count - 1].1 = view.seq
                    } else {
                        lastSeqs.append((view.device, view.seq))
                    }
                }
            }
            for name in pendingNames {
                batch.append(.deviceName(name))
                maxHLC = max(maxHLC, name.hlc)
            }
            pendingNames = []
            if options.writesKnowledgeMarks && bringsEdits {
                var knowledge = ledger.versionVector
                for (device, seq) in lastSeqs { knowledge[device] = max(knowledge[device] ?? 0, seq) }
                batch.append(.knowledgeMark(knowledgeMark(of: ledger, knowing: knowledge, after: maxHLC)))
                report.marksWritten += 1
            }
            try ledger.append(batch, visit: observe)
            report.batches += 1
            report.eventsIn += end - start
            progress?(end)
            start = end
        } while start < admitted.order.count
        report.namesIn = admitted.names.count
        return report
    }
}
