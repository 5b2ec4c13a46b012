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
        var digests: [DeviceID: String] = [:]
        let held = heldAtStart
        var run: (device: DeviceID, newest: UInt64) = (DeviceID(rawValue: 0), 0)
        try ledger.forEachRecord { view, _ in
            records.append(view)
            guard view.hasEventID else { return }
            if view.device != run.device { run = (view.device, held[view.device] ?? 0) }
            if view.seq == run.newest { digests[view.device] = EventDigest.hex(view) }
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
        func visit(_ view: RecordView, _ position: UInt64) {
            if owesMarkCheck {
                switch view.kind {
                case .knowledgeMark where view.device == local: lastMark = position
                case .stationEdit where view.device != local: lastForeignEdit = position
                default: break
                }
            }
            guard view.hasEventID else { return }
            let theirs = serverHas[view.device] ?? 0
            if view.seq > theirs {
                collected.records.append(view)
                events += 1
            } else if view.seq == theirs, fork == nil, let digest = serverDigests[view.device.description],
                      digest != EventDigest.hex(view) {
                fork = SyncFork(device: view.device, seq: theirs)
            }
        }
        let beyondServer = heldAtStart.contains { $0.value > serverHas[$0.key] ?? 0 }
        if let before, beyondServer || owesMarkCheck {
            var position: UInt64 = 0
            before.forEach { view in
                visit(view, position)
                position += 1
            }
        } else if beyondServer || owesMarkCheck {
            try ledger.forEachRecord { (view, position) -> RecordIteration in
                guard position < countAtStart else { return .stop }
                visit(view, position)
                return .continue
            }
        }
        if let localFrom { try ledger.forEachRecord(from: localFrom) { view, position in visit(view, position) } }
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
