import LedgerCore

/// Moves one device's events from seq `firstSeq` on to a new device id (Schemas/merge.md
/// §10–§11): the local device's (a copy, `reissue`), or another device's that this ledger
/// received from a copy by `merge` (`sync --rehome`). One rewrite, two policies:
/// - a copied ledger (`.keep`): the copy's divergent events keep their hlc, so the fold orders
///   them as before, and the server's version of the old device's events can then be pulled;
/// - `reissue` (`.restamp`): events dated beyond the clock bound get the current clock.
///
/// Every other record is kept as it was, in log order; the moved events take the new device's
/// seqs 1, 2, … in their order with the same station, date, memo and origin; a moved knowledge
/// mark also records that its device had seen the old device's events before `firstSeq`. The
/// new id gets the device's name (another device's, marked as a copy; this ledger keeps its own
/// id then). The new ledger is built beside the old one and swapped in by `LedgerSwap`
/// (LedgerCore/Recovery); the old segments end in `quarantine/<UTC time>/segments/`.
package struct DeviceReidentification: Sendable, Equatable {
    package enum Stamping: Sendable, Equatable {
        /// Each moved event keeps its hlc.
        case keep
        /// The moved events get `HybridTimestamp.next` of the wall clock `now`, in their order.
        case restamp(now: Int64)
    }

    package var oldDevice: DeviceID
    package var newDevice: DeviceID
    /// The old device's seqs that moved: `firstSeq...lastSeq`.
    package var firstSeq: UInt64
    package var lastSeq: UInt64
    /// The quarantine directory of this rewrite, relative to the ledger directory.
    package var quarantine = ""

    /// Records per durable batch of the rebuilt ledger.
    static let batchSize = 20_000

    /// Rewrites `ledger` (open and locked by the caller, which must close it afterwards and open
    /// the directory again): `device`'s events (default: the local device's) from `firstSeq` on
    /// move to a new id. `derivedFiles` (the projection) are moved aside with the segments.
    package static func rewrite(_ ledger: Ledger, device: DeviceID? = nil, from firstSeq: UInt64, stamping: Stamping,
                                derivedFiles: [String], newDevice: DeviceID = .random()) throws -> DeviceReidentification {
        let old = device ?? ledger.localDevice
        let last = ledger.versionVector[old] ?? 0
        guard firstSeq >= 1, firstSeq <= last, newDevice != old, ledger.versionVector[newDevice] == nil else {
            throw LedgerError(.usage, "device \(old) has no events from #\(firstSeq) to move")
        }
        var result = DeviceReidentification(oldDevice: old, newDevice: newDevice, firstSeq: firstSeq, lastSeq: last)
        let staging = Path.join(ledger.directory, LedgerSwap.stagingDirectory)
        try LedgerSwap.removeStaging(staging, fileSystem: ledger.fileSystem)
        // The rebuilt ledger starts with the new id's name record (Ledger.create writes it for
        // its metadata's device); when another device moves, ledger.json keeps this ledger's id.
        var metadata = ledger.metadata
        metadata.device = newDevice.description
        if old != ledger.localDevice { metadata.deviceName = copyName(of: ledger.deviceNames[old]?.name, device: old) }
        let rebuilt = try Ledger.create(directory: staging, metadata: metadata, fileSystem: ledger.fileSystem,
                                        clock: ledger.clock, useLock: false)
        do {
            var batch: [LedgerRecord] = []
            var moved = Moved(old: old, new: newDevice, firstSeq: firstSeq, stamping: stamping)
            try ledger.forEachRecord { view, _ in
                batch.append(view.hasEventID && view.device == old && view.seq >= firstSeq ? moved.next(view.record) : view.record)
                if batch.count >= batchSize {
                    try rebuilt.append(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try rebuilt.append(batch)
            rebuilt.close()
            if old != ledger.localDevice {
                // The rebuilt segments were all created with their watermarks (Ledger.create).
                var kept = ledger.metadata
                kept.watermarkedFrom = rebuilt.metadata.watermarkedFrom
                try ledger.fileSystem.writeAtomically(Path.join(staging, LedgerMetadata.fileName), kept.encoded())
            }
        } catch {
            rebuilt.close()
            try? LedgerSwap.removeStaging(staging, fileSystem: ledger.fileSystem)
            throw error
        }
        result.quarantine = try LedgerSwap.commit(into: ledger.directory, fileSystem: ledger.fileSystem, clock: ledger.clock,
                                                  derivedFiles: derivedFiles, note: result.note)
        return result
    }

    /// "NAME (copy)", within the name limit (cut at a character boundary).
    static func copyName(of name: String?, device: DeviceID) -> String {
        let suffix = " (copy)"
        var base = name ?? "device \(device)"
        while base.utf8.count + suffix.utf8.count > DeviceNameRecord.maximumNameBytes { base.removeLast() }
        return base + suffix
    }

    /// What the quarantine's marker file says while the swap is unfinished.
    var note: String {
        "device \(oldDevice)'s events #\(firstSeq)–#\(lastSeq) are being moved to device \(newDevice); any oritsubushi command on this ledger finishes the swap\n"
    }

    /// The moved events under the new id, in order.
    private struct Moved {
        let old: DeviceID
        let new: DeviceID
        let firstSeq: UInt64
        let stamping: Stamping
        var seq: UInt64 = 0
        var lastStamp = HybridTimestamp.zero

        init(old: DeviceID, new: DeviceID, firstSeq: UInt64, stamping: Stamping) {
            (self.old, self.new, self.firstSeq, self.stamping) = (old, new, firstSeq, stamping)
        }

        mutating func next(_ record: LedgerRecord) -> LedgerRecord {
            seq += 1
            let id = EventID(device: new, seq: seq)
            var hlc = record.hlc
            if case .restamp(let now) = stamping {
                hlc = .next(after: lastStamp, wallClock: now)
                lastStamp = hlc
            }
            switch record {
            case .stationEdit(var edit):
                edit.id = id
                edit.hlc = hlc
                return .stationEdit(edit)
            case .catalogVersion(var event):
                event.id = id
                event.hlc = hlc
                return .catalogVersion(event)
            case .knowledgeMark(var mark):
                mark.id = id
                mark.hlc = hlc
                // The new id's events have seen what the old id wrote before them.
                if firstSeq > 1 { mark.knowledge[old] = max(mark.knowledge[old] ?? 0, firstSeq - 1) }
                mark.knowledge[new] = nil
                return .knowledgeMark(mark)
            case .deviceName:
                return record
            }
        }
    }
}
