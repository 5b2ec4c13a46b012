import LedgerCore

/// The one admission of received events (Schemas/merge.md §2), used by every path that accepts
/// events: a local `merge`, `sync`'s pulled pages, both server stores' pushes, `server export`
/// and `repair`. Every rule is stated here once:
///
/// - **identity and content**: a received copy of an event the receiver holds must be
///   byte-identical to the stored one (compared by fingerprint, `checkStored`), and one id
///   received twice must come with one content; a differing held copy is a fork
///   (`LedgerError.Cause.differingEvent`, HTTP 409 `fork`);
/// - **seq continuity**: each device's new seqs continue the receiver's version vector;
/// - **the clock bound**: no event or device name dated beyond the clock lead;
/// - **content and the catalogue**: a station edit is valid and names a station the catalogue
///   knows.
///
/// Received records go in with `receive` (one at a time, in any order); the caller compares the
/// held copies with what it stores (`checkStored`: one scan of a ledger, or rows fetched by id);
/// `admit` then sorts the new events by `(device, seq)` and runs the rest. Nothing is written
/// before `admit` returns, so a refusal leaves the receiver untouched.
package struct MergeAdmission {
    /// What the checks need of the receiver, taken before anything runs side by side.
    package struct Receiver: Sendable {
        var held: [DeviceID: UInt64]
        var deviceNames: [DeviceID: DeviceNameRecord]
        var now: Int64

        package init(held: [DeviceID: UInt64], deviceNames: [DeviceID: DeviceNameRecord], now: Int64) {
            (self.held, self.deviceNames, self.now) = (held, deviceNames, now)
        }

        package init(_ ledger: Ledger) {
            self.init(held: ledger.versionVector, deviceNames: ledger.deviceNames, now: ledger.clock.nowMilliseconds())
        }
    }

    let receiver: Receiver
    let options: MergeOptions
    private(set) var batch: RecordBatch
    /// The newest name of each device received (the first of equal ones).
    private(set) var names: [DeviceID: DeviceNameRecord] = [:]
    /// Fingerprints of the received copies of held events.
    private var heldCopies: [EventID: UInt64] = [:]
    /// Received events the receiver already holds (compared copies count once each time).
    private(set) var duplicates = 0
    // Received events come in runs of one device: one lookup of `held` per run.
    private var runDevice: UInt64 = 0
    private var runHeld: UInt64 = 0

    /// An admission into `receiver`; `counts` bounds the new events expected per device (room
    /// is reserved for them).
    package init(into receiver: Receiver, options: MergeOptions, expecting counts: [(DeviceID, UInt64)] = []) {
        self.receiver = receiver
        self.options = options
        batch = RecordBatch(expecting: counts)
    }

    /// An admission of a received batch of `bytes` bytes of records (room is reserved for them).
    package init(into receiver: Receiver, options: MergeOptions, expectingBytes bytes: Int) {
        self.receiver = receiver
        self.options = options
        batch = RecordBatch(expectingBytes: bytes)
    }

    /// Whether the receiver holds the event `id`.
    @inline(__always)
    private mutating func holds(_ id: EventID) -> Bool {
        if id.device.rawValue != runDevice || runDevice == 0 {
            runDevice = id.device.rawValue
            runHeld = receiver.held[id.device] ?? 0
        }
        return id.seq <= runHeld
    }

    /// Takes one received record: a device name, a copy of a held event (fingerprinted for
    /// `checkStored`; two different copies of it are refused here), or a new event.
    package mutating func receive(_ view: RecordView) throws {
        guard view.hasEventID else {
            receiveName(DeviceNameRecord(device: view.device, hlc: view.hlc, name: view.deviceName))
            return
        }
        let id = view.eventID
        guard holds(id) else {
            batch.add(view)
            return
        }
        let print = RecordFingerprint.of(view)
        if let other = heldCopies.updateValue(print, forKey: id), other != print { throw RecordChecks.differs(id) }
        duplicates += 1
    }

    /// Takes a new event a local merge found beyond the receiver; it fingerprints the events
    /// both hold itself (`OverlapFingerprints`) and counts them with `countHeldCopy`.
    mutating func receiveNew(_ view: RecordView) { batch.add(view) }

    /// Counts one held event whose copy the caller compares itself.
    mutating func countHeldCopy() { duplicates += 1 }

    /// Takes a device name: the newest of each device is kept (the first of equal ones).
    package mutating func receiveName(_ name: DeviceNameRecord) {
        if let known = names[name.device], known.hlc >= name.hlc { return }
        names[name.device] = name
    }

    // MARK: - Held copies

    /// The held events received, in `(device, seq)` order, for a store that fetches them by id.
    package var heldIDs: [EventID] { heldCopies.keys.sorted() }

    /// Refuses the merge if the receiver's stored copy of a held event (its encoded record)
    /// differs from the one received; other records are ignored.
    package func checkStored(_ id: EventID, encoded bytes: UnsafeRawBufferPointer) throws {
        if let print = heldCopies[id], print != RecordFingerprint.of(bytes) { throw RecordChecks.differs(id) }
    }

    /// `checkStored` over the receiver's whole log: one scan, only when a held event was received.
    package func checkStored(in ledger: Ledger) throws {
        guard !heldCopies.isEmpty else { return }
        try ledger.forEachRecord { view, _ in
            guard view.hasEventID else { return }
            try checkStored(view.eventID, encoded: UnsafeRawBufferPointer(start: view.base, count: view.length))
        }
    }

    // MARK: - Admitting

    /// Runs the remaining checks in `(device, seq)` order, each event's in turn: one id received
    /// twice with two contents, a gap in the device's seqs, the clock bound, the content and
    /// the catalogue; then the device names' clocks. Returns the new events and names to append.
    package consuming func admit() throws -> AdmittedBatch {
        let receiver = self.receiver, options = self.options, names = self.names
        let nameOf = { (device: DeviceID) -> String in
            if let name = names[device]?.name ?? receiver.deviceNames[device]?.name { return "'\(name)' (\(device))" }
            return "\(device)"
        }
        let sorted = batch.sorted()
        var order: [(offset: Int, length: Int)] = []
        order.reserveCapacity(sorted.count)
        var continuity = SeqContinuity(held: receiver.held)
        try batch.records.bytes.withUnsafeBytes { buffer in
            var previous: RecordView?
            for (offset, length) in sorted {
                let view = RecordView(validated: buffer.baseAddress! + offset, length: length)
                let id = view.eventID
                if let previous, previous.device == view.device, previous.seq == view.seq {
                    // The same id twice in what was received: identical copies are one event.
                    guard UnsafeRawBufferPointer(start: previous.base, count: previous.length)
                        .elementsEqual(UnsafeRawBufferPointer(start: view.base, count: length)) else {
                        throw RecordChecks.differsWithin(id)
                    }
                    continue
                }
                previous = view
                if let gap = continuity.accept(id) {
                    throw LedgerError(.conflict, "\(gap.message(device: nameOf(id.device))); nothing was written", cause: .seqGap(gap))
                }
                try RecordChecks.checkClock(view.hlc, device: nameOf(id.device), now: receiver.now, options: options)
                try RecordChecks.checkContent(view, options: options)
                order.append((offset, length))
            }
        }
        var admitted = AdmittedBatch(batch: batch, order: order, names: [], duplicates: duplicates)
        for name in names.values.sorted(by: { $0.device < $1.device }) {
            try RecordChecks.checkClock(name.hlc, device: nameOf(name.device), now: receiver.now, options: options)
            if let current = receiver.deviceNames[name.device], current.hlc >= name.hlc { continue }
            admitted.names.append(name)
        }
        return admitted
    }
}
