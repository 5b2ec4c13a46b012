import LedgerCore

/// What `SegmentRepair` needs of a record beyond salvaging it: how to order recovered events,
/// when two copies of one event contradict each other, and how the repaired ledger takes them.
/// Plaintext records go through the normal append and merge; sealed ones, which the server cannot
/// read, through the sealed append, compared only as their stored forms (Schemas/encryption.md §10).
package protocol RepairableRecord: SalvageableRecord {
    /// The device whose event or name this is.
    var device: DeviceID { get }
    /// The key epoch a sealed record is sealed under; `nil` for a plaintext record.
    var sealedEpoch: UInt32? { get }
    /// Interleaves recovered events of several devices (each device's in seq order).
    var recoveryOrder: UInt64 { get }
    /// A device name: kept by a repair whatever its position (names have no seq).
    var isDeviceName: Bool { get }
    /// Whether `other`, a copy of the same event, contradicts this one (a corrupt or forged replica).
    func contradicts(_ other: Self) -> Bool
    /// The records of a replica `ledger` of this form that `keep` wants (by event id; nil for a
    /// device name), in log order; only those are copied out.
    static func records(of ledger: Ledger, where keep: (EventID?) -> Bool) throws -> [Self]
    /// Appends a planned batch to the repaired ledger (whose continuity the plan respects).
    static func append(_ records: ArraySlice<Self>, to ledger: Ledger) throws
    /// Merges `events` (continuing every device's seqs) and the `names` the ledger lacks; returns
    /// the number of events taken.
    static func merge(_ events: [Self], names: [Self], into ledger: Ledger) throws -> Int
}

extension LedgerRecord: RepairableRecord {
    package var sealedEpoch: UInt32? { nil }
    package var recoveryOrder: UInt64 { hlc.rawValue }

    package var isDeviceName: Bool {
        if case .deviceName = self { return true }
        return false
    }

    package func contradicts(_ other: LedgerRecord) -> Bool { self != other }

    package static func records(of ledger: Ledger, where keep: (EventID?) -> Bool) throws -> [LedgerRecord] {
        var records: [LedgerRecord] = []
        try ledger.forEachRecord { view, _ in
            if keep(view.hasEventID ? view.eventID : nil) { records.append(view.record) }
        }
        return records
    }

    package static func append(_ records: ArraySlice<LedgerRecord>, to ledger: Ledger) throws {
        try ledger.append(records)
    }

    package static func merge(_ events: [LedgerRecord], names: [LedgerRecord], into ledger: Ledger) throws -> Int {
        // The normal merge path, minus what does not fit a repair.
        let options = MergeOptions.reappendingDuringRepair
        let prepared = try LedgerMerger.prepare(events + names, for: ledger, options: options)
        return try LedgerMerger.apply(prepared, to: ledger, options: options).eventsIn
    }
}

extension SealedRecord: RepairableRecord {
    package static var form: LedgerRecords { .sealed }

    /// A sealed run stands for its events `firstSeq … seq` (encryption.md §3.5).
    package var eventID: EventID? { kind.holdsEvents ? EventID(device: device, seq: firstSeq) : nil }
    package var lastSeq: UInt64 { seq }
    package var sealedEpoch: UInt32? { epoch }
    /// Sealed records carry no clock the server reads: recovered events go device by device.
    package var recoveryOrder: UInt64 { 0 }
    package var isDeviceName: Bool { kind == .name }

    /// Two copies under one epoch are byte-identical (the nonce is synthetic, encryption.md §3.2);
    /// copies under different epochs, or of another kind (an event sealed alone and a run of
    /// one), cannot be compared without the key, as on a push (§10).
    package func contradicts(_ other: SealedRecord) -> Bool { kind == other.kind && epoch == other.epoch && self != other }

    package static func salvage(_ bytes: UnsafeRawBufferPointer, with reader: SegmentReader, into records: inout [SealedRecord]) -> SegmentReader.Outcome? {
        // The sealed reader checked every record of a frame before handing the frame out.
        try? reader.read(bytes, summarize: true, frameDone: { frame in
            try SealedRecordStream.forEach(in: frame.records) { records.append(SealedRecord($0)) }
            return .continue
        })
    }

    package static func records(of ledger: Ledger, where keep: (EventID?) -> Bool) throws -> [SealedRecord] {
        var records: [SealedRecord] = []
        try ledger.forEachSealedRecord { view, _ in
            let wanted = view.kind.holdsEvents
                ? (view.firstSeq...view.seq).contains { keep(EventID(device: view.device, seq: $0)) } : keep(nil)
            if wanted { records.append(SealedRecord(view)) }
            return .continue
        }
        return records
    }

    package static func append(_ records: ArraySlice<SealedRecord>, to ledger: Ledger) throws {
        var sealed = SealedRecords()
        for record in records { sealed.append(record) }
        try sealed.bytes.withUnsafeBytes { try ledger.appendSealed($0) }
    }

    package static func merge(_ events: [SealedRecord], names: [SealedRecord], into ledger: Ledger) throws -> Int {
        // A name is kept once per sealed form, as the admission keeps it (encryption.md §10).
        var held = Set<UInt64>()
        try ledger.forEachSealedRecord { view, _ in
            if view.kind == .name { held.insert(RecordFingerprint.of(view.bytes)) }
            return .continue
        }
        let newNames = names.filter { name in name.recordBytes.withUnsafeBytes { held.insert(RecordFingerprint.of($0)).inserted } }
        try append(ArraySlice(events + newNames), to: ledger)
        return events.reduce(0) { $0 + $1.eventCount }
    }
}
