import Foundation
import LedgerCore
import LedgerSync

/// What `sync` does to the records of an end-to-end encrypted account (Schemas/encryption.md §11
/// "The client"): the device's own ledger stays plaintext, so it seals what it pushes and opens
/// what it pulls (then admits the opened records as merge.md §2.1 says, so that the clock and
/// content checks happen on the device).
package enum SyncSealing {
    /// Every record of a push sealed under `key`: each device's consecutive events as sealed
    /// runs (kind 7, encryption.md §3.5), cut as §3.5 says; an event that would be a run of its
    /// own as kind 5, device names (kind 3) as kind 6 (§3); in order. Deterministic: the same
    /// records and key give the same bytes on any device (§3.2).
    /// With `asRuns` false every event is sealed alone (kind 5): a repair's replica, whose events
    /// must fill any range a damaged log lost, whatever the cut of the runs it held (§11).
    /// - Throws: `EncryptionError` `.unsealable` for a record the sealer refuses (a knowledge
    ///   mark of more than 4,090 entries, segment-format.md §3.6).
    package static func seal(_ records: EncodedRecords, with key: DataKey, asRuns: Bool = true) throws(EncryptionError) -> SealedRecords {
        var sealed = SealedRecords()
        sealed.reserve(bytes: records.bytes.count + records.count * 4)
        let runs = RunSealer()
        var run: RunCut?
        var failure: EncryptionError?
        func flush() {
            guard let cut = run, failure == nil else { return }
            run = nil
            do throws(SealingError) {
                if cut.count == 1 {
                    sealed.append(try RecordSealer.seal(Array(cut.bytes), with: key))
                } else {
                    sealed.append(try runs.seal(cut.bytes, device: cut.device, first: cut.first, last: cut.last, with: key))
                }
            } catch {
                failure = unsealable(device: cut.device, seq: cut.first, error)
            }
        }
        records.forEach { view in
            guard failure == nil else { return }
            if asRuns, run?.extend(with: view) == true { return }
            flush()
            if view.kind == .deviceName {
                do throws(SealingError) {
                    sealed.append(try RecordSealer.seal(recordBytes(view), with: key))
                } catch {
                    failure = EncryptionError(.unsealable(device: view.device, seq: 0, reason: error),
                                              "the device name of device \(view.device) cannot be sealed: \(describe(error))")
                }
            } else {
                run = RunCut(view)
            }
        }
        flush()
        if let failure { throw failure }
        return sealed
    }

    /// A run being cut from a push's records (encryption.md §3.5): one device's consecutive
    /// events, contiguous in the records' bytes.
    private struct RunCut {
        let start: UnsafeRawPointer
        var byteCount: Int
        let device: DeviceID
        let first: UInt64
        var last: UInt64
        var count = 1

        init(_ view: RecordView) {
            (start, byteCount, device, first, last) = (view.base, view.length, view.device, view.seq, view.seq)
        }

        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: byteCount) }

        /// Takes `view` as the run's next event if §3.5's cut allows it: the device's next seq,
        /// right after the run in the records, before 60,000 bytes of records.
        mutating func extend(with view: RecordView) -> Bool {
            guard view.kind != .deviceName, view.device == device, view.seq == last &+ 1, view.base == start + byteCount,
                  byteCount + view.length <= SealedRecordLayout.maximumRunRecordBytes
            else { return false }
            byteCount += view.length
            last = view.seq
            count += 1
            return true
        }
    }

    /// What `view` adds at most to a push's sealed records, for cutting a push into pages by
    /// what it will weigh on the wire (`EncodedRecords.pages(records:bytes:size:)`): ciphertext
    /// does not compress. An event that continues its device's seqs adds at most a few bytes
    /// more than its record to the run it joins (a block is never more than a few per cent
    /// longer than its records); any other record may start a sealed record of its own, with its
    /// header, clear fields, a block header, padding and tag.
    package static func sealedLength() -> (RecordView) -> Int {
        var previous: (device: DeviceID, seq: UInt64)?
        return { view in
            defer { previous = view.kind == .deviceName ? nil : (view.device, view.seq) }
            if view.kind != .deviceName, let previous, previous.device == view.device, previous.seq &+ 1 == view.seq {
                return view.length + view.length / 16 + 2
            }
            return RecordLayout.headerSize + SealedRecordLayout.runFixedBody + 52 + RecordSealer.paddedLength(view.length)
                + SealedRecordLayout.tagSize
        }
    }

    /// Every sealed record opened with its epoch's key from `keys`, as the plaintext records
    /// they hold, in order; each checked as §3.3 says.
    /// - Throws: `EncryptionError` `.missingKey(epoch:)` for a record of an epoch the ring lacks
    ///   (the sentence says how to get it), `.unopenable(device:seq:reason:)` for one that does
    ///   not open under its epoch's key.
    /// A pull page's records are opened on every core: in parts of about equal size, each opened
    /// on its own, then joined in order (opening is most of an encrypted pull's work). With
    /// `framed`, each part is also written as the frames a ledger keeps (`EncodedRecords.frames`),
    /// so that appending the page writes them as they are, as a plaintext pull's frames are.
    package static func open(_ sealed: SealedRecords, keys: KeyRing, framed: Bool = false) throws(EncryptionError) -> EncodedRecords {
        let parts = sealed.split(into: sealed.bytes.count < 1 << 20 ? 1 : ProcessInfo.processInfo.activeProcessorCount)
        let opened = OpenedParts(count: parts.count)
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            opened.set(index, Result { () throws(EncryptionError) in
                var part = try openPart(parts[index], keys: keys)
                if framed {
                    var frames: [UInt8] = []
                    let counts = part.bytes.withUnsafeBytes { RecordFrames.Writer().encode($0, appendingTo: &frames) }
                    part.keep(readFrom: RecordFrames.Received(bytes: frames, counts: counts))
                }
                return part
            })
        }
        // Every part was opened: `concurrentPerform` returns after the last.
        let results = try opened.results.map { result throws(EncryptionError) in try result!.get() }
        if results.count == 1 { return results[0] }
        var records = EncodedRecords()
        records.reserve(bytes: results.reduce(0) { $0 + $1.bytes.count })
        var frames = framed ? RecordFrames.Received(bytes: [], counts: []) : nil
        for part in results {
            part.bytes.withUnsafeBytes { records.append(validated: $0, count: part.count) }
            if let kept = part.frames { kept.forEachFrame { frames?.append(stored: $0, count: $1) } }
        }
        if let frames { records.keep(readFrom: frames) }
        return records
    }

    /// The results of opening a page's parts, each written once by the part's own thread.
    private final class OpenedParts: @unchecked Sendable {
        private(set) var results: [Result<EncodedRecords, EncryptionError>?]
        private let lock = NSLock()

        init(count: Int) { results = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ result: Result<EncodedRecords, EncryptionError>) {
            lock.withLock { results[index] = result }
        }
    }

    /// Opens `sealed` in order on this thread.
    private static func openPart(_ sealed: SealedRecords, keys: KeyRing) throws(EncryptionError) -> EncodedRecords {
        var records = EncodedRecords()
        // About 40 bytes an event opened (a station edit without a memo is 38).
        var events = 0
        sealed.forEach { events += Int($0.eventCount) }
        records.reserve(bytes: events * 40)
        var failure: EncryptionError?
        let runs = RunSealer()
        sealed.forEach { view in
            guard failure == nil else { return }
            guard let key = keys.key(epoch: view.epoch) else {
                failure = missingKey(epoch: view.epoch, current: keys.current.epoch)
                return
            }
            do throws(SealingError) {
                // Opening checked them as segment-format.md §3 does (§3.3 step 5, §3.5).
                if view.kind == .run {
                    try runs.open(SealedRecord(view), with: key, appendingTo: &records)
                } else {
                    let record = try RecordSealer.open(SealedRecord(view), with: key)
                    record.withUnsafeBytes { records.append(validated: $0, count: 1) }
                }
            } catch {
                let what = switch view.kind {
                case .event: "the event of device \(view.device) seq \(view.seq)"
                case .run: "the events of device \(view.device) seqs \(view.firstSeq)–\(view.seq)"
                case .name: "a device name of device \(view.device)"
                }
                failure = EncryptionError(.unopenable(device: view.device, seq: view.seq, reason: error),
                                          "\(what) (key epoch \(view.epoch)) does not open with this device's key of that epoch: \(describe(error))")
            }
        }
        if let failure { throw failure }
        return records
    }

    /// The digest the server of an encrypted account answers for a held sealed record (its
    /// stored form's `EventDigest`, encryption.md §11 "Fork detection on pulls").
    package static func digest(ofSealed view: SealedRecordView) -> EventDigest.Value {
        EventDigest.value(view)
    }

    /// The same for a `SealedRecord` held as a value.
    package static func digest(ofSealed record: SealedRecord) -> EventDigest.Value {
        record.recordBytes.withUnsafeBytes { EventDigest.value($0) }
    }

    /// The digest this device's own copy of an event would have on the server once sealed under
    /// `key` (the epoch the server names): sealing is deterministic (§3.2), so a digest that
    /// differs from the server's is a fork (`SyncFork`), as for a plaintext account.
    /// - Throws: `EncryptionError` `.unsealable` when the sealer refuses the record.
    package static func digest(sealing view: RecordView, with key: DataKey) throws(EncryptionError) -> EventDigest.Value {
        do {
            return digest(ofSealed: try RecordSealer.seal(recordBytes(view), with: key))
        } catch {
            throw unsealable(device: view.device, seq: view.seq, error)
        }
    }

    /// The refusal of a record the sealer refuses.
    static func unsealable(device: DeviceID, seq: UInt64, _ error: SealingError) -> EncryptionError {
        EncryptionError(.unsealable(device: device, seq: seq, reason: error),
                        "the record of device \(device) seq \(seq) cannot be sealed: \(describe(error))")
    }

    /// The refusal of a record sealed under an epoch whose key this device lacks.
    static func missingKey(epoch: UInt32, current: UInt32) -> EncryptionError {
        let newer = epoch > current
            ? "the account's key changed since this device last had it (epoch \(epoch); this device holds up to \(current))"
            : "this device lacks the key of epoch \(epoch), and the server's key chain did not give it"
        return EncryptionError(.missingKey(epoch: epoch),
                               "records on the server are sealed with a key this device does not hold: \(newer); get the key with a link from a device that has it (`oritsubushi device link` there), or enter the recovery kit, then sync again")
    }

    private static func recordBytes(_ view: RecordView) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: view.base, count: view.length))
    }

    private static func describe(_ error: SealingError) -> String {
        switch error {
        case .unauthentic: "it fails its authentication (damaged, forged, or sealed with another key)"
        case .noncanonical: "its nonce is not the one its content gives"
        case .padding: "its padding is wrong"
        case .kind: "it holds another kind of record than its clear kind says"
        case .identity: "the record inside names another device or seq than its clear fields"
        case .record(let why): "the record inside is not valid (\(why))"
        case .length, .character, .checksum: "its length is wrong"
        }
    }
}
