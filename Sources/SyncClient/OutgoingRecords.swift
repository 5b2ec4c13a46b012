import LedgerCore
import LedgerSync

/// What a sync round pushes: the records whose seq the server has not acknowledged, and the
/// latest name of every device, found without reading the whole log when it need not be read.
///
/// The log is two parts. Before the sync started, any record may be one the server lacks, so
/// that part is read only when the ledger then held an event beyond what the server holds now
/// (or a knowledge mark may be owed, below). What the sync itself appended is either pulled
/// (the server holds it) or a knowledge mark of this device, so that part is read only from the
/// first mark this sync appended. A device joining a long ledger thus pushes its one mark
/// without reading the million events it just pulled.
struct OutgoingRecords {
    private let ledger: Ledger
    private let countAtStart: UInt64
    private let heldAtStart: [DeviceID: UInt64]
    /// The position of the first record this sync appended itself (a knowledge mark).
    private var localFrom: UInt64?
    /// The log before the sync, read ahead (`readAhead`): positions are indices.
    private var before: EncodedRecords?

    init(_ ledger: Ledger) {
        self.ledger = ledger
        countAtStart = ledger.recordCount
        heldAtStart = ledger.versionVector
    }

    /// Reads the log before the sync once, keeping its records, and returns the digest of each
    /// device's newest event (the first pull's `have_digests`): when events are waiting to be
    /// pushed, the rounds then filter these records instead of reading the log again.
    mutating func readAhead() throws -> [DeviceID: String] {
        var records = EncodedRecords()
        // About 40 bytes a record: room reserved once, not grown by copies (unused room costs nothing).
        records.reserve(bytes: Int(ledger.recordCount) * 48)
        var digests: [DeviceID: String] = [:]
        let held = heldAtStart
        var run: (device: DeviceID, newest: UInt64) = (DeviceID(rawValue: 0), 0)
        // A frame's records are kept in one copy, then looked at one by one.
        try ledger.forEachFrame(from: 0) { frame, _ in
            records.append(validated: frame.records, count: frame.count)
            RecordStream.forEachValidated(in: frame.records) { view in
                guard view.hasEventID else { return }
                if view.device != run.device { run = (view.device, held[view.device] ?? 0) }
                if view.seq == run.newest { digests[view.device] = EventDigest.hex(view) }
            }
            return .continue
        }
        before = records
        return digests
    }

    /// Call before this sync appends a record of its own.
    mutating func noteLocalAppend() {
        if localFrom == nil { localFrom = ledger.recordCount }
    }

    struct Collected {
        var records = EncodedRecords()
        /// The knowledge mark appended because one was owed (Schemas/merge.md §5).
        var catchUpMark: KnowledgeMark?
    }

    /// The records to push against `serverHas`, and how many are events. With `owesMarkCheck`
    /// (the first round, when it pulled no other device's edit), the log before the sync is read
    /// in any case to find whether a knowledge mark is owed (a sync interrupted after appending
    /// pages, before its mark); one is then appended and pushed.
    /// Throws `SyncFork` when the server holds another event under an id this ledger holds.
    mutating func collect(serverHas: [DeviceID: UInt64], serverDigests: [String: String],
                          owesMarkCheck: Bool) throws -> (Collected, events: Int) {
        var collected = Collected()
        var events = 0
        // Every device's latest name: the server keeps the newest it is given.
        for name in ledger.deviceNames.values.sorted(by: { $0.device < $1.device }) { collected.records.append(.deviceName(name)) }
        var fork: SyncFork?
        var lastMark: UInt64?
        var lastForeignEdit: UInt64?
        let local = ledger.localDevice
        /// Whether the record goes out (the caller appends it); notes forks and marks.
        func visit(_ view: RecordView, _ position: UInt64) -> Bool {
            if owesMarkCheck {
                switch view.kind {
                case .knowledgeMark where view.device == local: lastMark = position
                case .stationEdit where view.device != local: lastForeignEdit = position
                default: break
                }
            }
            guard view.hasEventID else { return false }
            let theirs = serverHas[view.device] ?? 0
            if view.seq > theirs {
                events += 1
                return true
            } else if view.seq == theirs, fork == nil, let digest = serverDigests[view.device.description],
                      digest != EventDigest.hex(view) {
                fork = SyncFork(device: view.device, seq: theirs)
            }
            return false
        }
        let beyondServer = heldAtStart.contains { $0.value > serverHas[$0.key] ?? 0 }
        if let before, beyondServer { collected.records.reserve(bytes: before.bytes.count) }
        if let before, beyondServer || owesMarkCheck {
            var position: UInt64 = 0
            // Runs of outgoing records are copied in one go (a first push copies the log once).
            before.forEachRun(where: { view in
                defer { position += 1 }
                return visit(view, position)
            }) { collected.records.append(validated: $0, count: $1) }
        } else if beyondServer || owesMarkCheck {
            try ledger.forEachRecord { (view, position) -> RecordIteration in
                guard position < countAtStart else { return .stop }
                if visit(view, position) { collected.records.append(view) }
                return .continue
            }
        }
        if let localFrom {
            try ledger.forEachRecord(from: localFrom) { view, position in
                if visit(view, position) { collected.records.append(view) }
            }
        }
        // Nothing is pushed over a fork: the server holds other events under these ids.
        if let fork { throw fork }
        if owesMarkCheck, let edit = lastForeignEdit, edit > lastMark ?? 0 || lastMark == nil {
            noteLocalAppend()
            let mark = try LedgerMerger.appendKnowledgeMark(ledger)
            collected.records.append(.knowledgeMark(mark))
            collected.catchUpMark = mark
            events += 1
        }
        return (collected, events)
    }
}
