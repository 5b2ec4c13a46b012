import LedgerCore

/// The admission of received sealed records into an end-to-end encrypted account, without the
/// key (Schemas/encryption.md §10): what the server can still check of records it cannot read.
///
/// - **epochs**: a record sealed under an epoch the account does not have is refused at once; a
///   new record must be sealed under the account's current epoch (`stale-epoch` after a rotation);
/// - **identity**: a received copy of a held event sealed under the epoch of the stored copy must
///   be byte-identical to it (a fork otherwise); one id received twice must come with one content;
/// - **seq continuity**: each device's new seqs continue the receiver's version vector;
/// - **runs** (kind 7, encryption.md §3.5): a run stands for its events `first … last`; a copy is
///   compared with a stored run of the same bounds, and a new run must continue its device;
/// - **names**: a sealed device name is kept once per distinct sealed form (the server cannot read
///   which is newest; devices open them all and take the newest).
///
/// As `MergeAdmission`: records go in with `receive`, the caller compares held copies with what it
/// stores (`heldIDs`, `checkStored`), then `admit` returns what to append. Nothing is written
/// before `admit` returns, so a refusal leaves the receiver untouched.
package struct SealedAdmission {
    /// What the checks need of the receiver.
    package struct Receiver: Sendable {
        /// The account's current key epoch.
        var epoch: UInt32
        /// The highest seq held per device.
        var held: [DeviceID: UInt64]
        /// Fingerprints (`RecordFingerprint`) of the sealed device names held.
        var names: Set<UInt64>

        package init(epoch: UInt32, held: [DeviceID: UInt64], names: Set<UInt64>) {
            (self.epoch, self.held, self.names) = (epoch, held, names)
        }
    }

    /// What an accepted batch appends: new events, each device's in seq order (as received when
    /// each device's seqs rise in the batch, else in `(device, seq)` order), then new names.
    package struct Admitted: Equatable, Sendable {
        package var events: [SealedRecord]
        package var names: [SealedRecord]
        package var duplicates: Int

        /// What a push answers as `appended`: the events appended (a run's every one) and the names.
        package var appendedCount: Int { events.reduce(0) { $0 + $1.eventCount } + names.count }
    }

    /// The identity of one copy of a held event (or run, keyed by its last seq): its kind, first
    /// seq and epoch, which a comparable stored copy shares, and the fingerprint of its sealed form.
    private struct Copy: Hashable {
        var kind: UInt8
        var first: UInt64
        var epoch: UInt32
        var print: UInt64

        func comparable(with other: Copy) -> Bool { (kind, first, epoch) == (other.kind, other.first, other.epoch) }
    }

    let receiver: Receiver
    private var events: [SealedRecord] = []
    private var names: [SealedRecord] = []
    private var nameSeen: Set<UInt64> = []
    /// The received copies of held events, per id and epoch.
    private var heldCopies: [EventID: [Copy]] = [:]
    private(set) var duplicates = 0

    package init(into receiver: Receiver) {
        self.receiver = receiver
    }

    /// Takes one received sealed record (read by `SealedRecordStream`, so well-formed).
    package mutating func receive(_ view: SealedRecordView) throws(LedgerError) {
        if view.epoch > receiver.epoch { throw Self.unknownEpoch(view, current: receiver.epoch) }
        guard view.kind.holdsEvents else {
            let print = RecordFingerprint.of(view.bytes)
            if !receiver.names.contains(print) && nameSeen.insert(print).inserted { names.append(SealedRecord(view)) }
            return
        }
        // A run is keyed by its last seq: every seq it stands for is held, or it is new.
        let id = EventID(device: view.device, seq: view.seq)
        // A new event is compared only with the batch's other copies of it (`admit`), by bytes;
        // a run that is new only in part is new, and refused there as a gap.
        guard id.seq <= receiver.held[id.device] ?? 0 else {
            events.append(SealedRecord(view))
            return
        }
        let copy = Copy(kind: view.kind.rawValue, first: view.firstSeq, epoch: view.epoch, print: RecordFingerprint.of(view.bytes))
        var copies = heldCopies[id] ?? []
        if copies.contains(where: { $0.comparable(with: copy) && $0.print != copy.print }) { throw RecordChecks.differs(id) }
        if !copies.contains(copy) { copies.append(copy) }
        heldCopies[id] = copies
        duplicates += Int(view.eventCount)
    }

    /// The held events received (a run's last), in `(device, seq)` order, for the store to fetch
    /// the stored record that holds each.
    package var heldIDs: [EventID] { heldCopies.keys.sorted() }

    /// Refuses the batch if the stored copy of a held event (its sealed form) differs from a copy
    /// received under the same epoch with the same bounds. A copy under another epoch is the
    /// same event sealed again after a rotation, and one with other bounds (another device's cut
    /// into runs) holds other events too: the server cannot compare them without the key, and
    /// keeps its own.
    package func checkStored(_ stored: SealedRecordView) throws(LedgerError) {
        let id = EventID(device: stored.device, seq: stored.seq)
        guard stored.kind.holdsEvents, let copies = heldCopies[id] else { return }
        let copy = Copy(kind: stored.kind.rawValue, first: stored.firstSeq, epoch: stored.epoch, print: RecordFingerprint.of(stored.bytes))
        if copies.contains(where: { $0.comparable(with: copy) && $0.print != copy.print }) { throw RecordChecks.differs(id) }
    }

    /// Runs the remaining checks in `(device, seq)` order: one id received twice with two
    /// contents, a gap in the device's seqs, an epoch other than the account's; then the new
    /// names' epochs. Returns what to append.
    package consuming func admit() throws(LedgerError) -> Admitted {
        // A device sends its log in order: each device's seqs rising, as the checks below want
        // them; only another order is sorted (stably, so that copies of one id stay in order).
        let sorted = Self.risesPerDevice(events) ? events : events.enumerated().sorted {
            ($0.element.device, $0.element.firstSeq, $0.element.seq, $0.offset)
                < ($1.element.device, $1.element.firstSeq, $1.element.seq, $1.offset)
        }.map(\.element)
        var continuity = SeqContinuity(held: receiver.held)
        var admitted: [SealedRecord] = []
        admitted.reserveCapacity(sorted.count)
        for record in sorted {
            let id = EventID(device: record.device, seq: record.seq)
            if let previous = admitted.last, previous.device == record.device, previous.seq == record.seq,
               previous.firstSeq == record.firstSeq {
                guard previous == record else { throw RecordChecks.differsWithin(id) }
                continue
            }
            if let gap = continuity.accept(device: record.device, first: record.firstSeq, last: record.seq) {
                throw LedgerError(.conflict, "\(gap.message()); nothing was written", cause: .seqGap(gap))
            }
            if record.epoch != receiver.epoch { throw Self.staleEpoch(Self.describe(record), found: record.epoch, current: receiver.epoch) }
            admitted.append(record)
        }
        for name in names where name.epoch != receiver.epoch {
            throw Self.staleEpoch("the device name of \(name.device)", found: name.epoch, current: receiver.epoch)
        }
        return Admitted(events: admitted, names: names, duplicates: duplicates)
    }

    /// Whether each device's seqs rise strictly in `records` (each one's first above the last
    /// seq of the device's record before it).
    private static func risesPerDevice(_ records: [SealedRecord]) -> Bool {
        var last: [DeviceID: UInt64] = [:]
        var lastDevice: DeviceID?
        var lastSeq: UInt64 = 0
        for record in records {
            if record.device == lastDevice {
                guard record.firstSeq > lastSeq else { return false }
            } else {
                if let lastDevice { last[lastDevice] = lastSeq }
                guard record.firstSeq > last[record.device] ?? 0 else { return false }
                lastDevice = record.device
            }
            lastSeq = record.seq
        }
        return true
    }

    // MARK: - Refusals

    /// What a refusal calls a sealed record: an event, a run of events or a device name.
    static func describe(_ record: SealedRecord) -> String {
        switch record.kind {
        case .event: "event \(EventID(device: record.device, seq: record.seq))"
        case .run: "the events \(EventID(device: record.device, seq: record.firstSeq))–\(record.seq)"
        case .name: "the device name of \(record.device)"
        }
    }

    static func unknownEpoch(_ view: SealedRecordView, current: UInt32) -> LedgerError {
        let what = describe(SealedRecord(view))
        return LedgerError(.conflict, "\(what) is sealed under key epoch \(view.epoch), which this account does not have (its key is at epoch \(current)); nothing was written",
                           cause: .unknownEpoch(current: current, found: view.epoch))
    }

    static func staleEpoch(_ what: String, found: UInt32, current: UInt32) -> LedgerError {
        LedgerError(.conflict, "\(what) is sealed under key epoch \(found), but this account's key moved to epoch \(current) when it was rotated: get the new key with a link from one of your devices or with the recovery kit, then sync again; nothing was written",
                    cause: .staleEpoch(current: current, found: found))
    }
}
