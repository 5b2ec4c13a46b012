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
        // A merged log interleaves its devices' events (each trip of each device a stretch of a
        // few): grouped, each device's events in the push seal as runs of the longest length
        // §3.5 allows, not a run a stretch.
        let records = asRuns ? records.groupedByDevice() : records
        let units = SealingUnit.cut(records, asRuns: asRuns)
        // Sealed on every core (it is most of an encrypted push's work), joined in order.
        let groups = SealingUnit.groups(units, parts: records.bytes.count < 1 << 20 ? 1 : EveryCore.parts)
        let parts = try EveryCore.map(groups.count) { index throws(EncryptionError) in
            try seal(units[groups[index]], of: records, with: key)
        }
        if parts.count == 1 { return parts[0] }
        var sealed = SealedRecords()
        sealed.reserve(bytes: parts.reduce(0) { $0 + $1.bytes.count })
        for part in parts { part.bytes.withUnsafeBytes { sealed.append(validated: $0, count: part.count) } }
        return sealed
    }

    /// Seals `units` of `records`, in order.
    private static func seal(_ units: ArraySlice<SealingUnit>, of records: EncodedRecords,
                             with key: DataKey) throws(EncryptionError) -> SealedRecords {
        let runs = RunSealer()
        return try records.bytes.withUnsafeBytes { buffer in
            Result { () throws(EncryptionError) -> SealedRecords in
                var sealed = SealedRecords()
                sealed.reserve(bytes: units.reduce(0) { $0 + $1.byteCount } / 2 + units.count * 128)
                for unit in units {
                    let bytes = UnsafeRawBufferPointer(rebasing: buffer[unit.offset..<(unit.offset + unit.byteCount)])
                    do throws(SealingError) {
                        if unit.kind == .run {
                            sealed.append(try runs.seal(bytes, device: unit.device, first: unit.first, last: unit.last, with: key))
                        } else {
                            sealed.append(try RecordSealer.seal(Array(bytes), with: key))
                        }
                    } catch {
                        guard unit.kind == .name else { throw unsealable(device: unit.device, seq: unit.first, error) }
                        throw EncryptionError(.unsealable(device: unit.device, seq: 0, reason: error),
                                              "the device name of device \(unit.device) cannot be sealed: \(describe(error))")
                    }
                }
                return sealed
            }
        }.get()
    }

    /// What `view` adds at most to a push's sealed records, for cutting a push into pages by
    /// what it will weigh on the wire (`EncodedRecords.pages(records:bytes:size:)`): ciphertext
    /// does not compress. An event that continues its device's seqs adds at most a few bytes
    /// more than its record to the run it joins (a block is never more than a few per cent
    /// longer than its records); any other record may start a sealed record of its own, with its
    /// header, clear fields, a block header, padding and tag.
    package static func sealedLength() -> (RecordView) -> Int {
        // Each device's last seq so far: a push groups its records by device before it cuts
        // (`EncodedRecords.groupedByDevice`), so an event continues its device's run even where
        // other devices' events come between them in the log. The current device's is kept
        // apart: a log's devices come in stretches, and hashing a device for every record was
        // most of cutting a million events into pages.
        var others: [DeviceID: UInt64] = [:]
        var current: (device: DeviceID, seq: UInt64?)?
        return { view in
            if current?.device != view.device {
                if let current { others[current.device] = current.seq }
                current = (view.device, others[view.device])
            }
            let continues = view.kind != .deviceName && current!.seq.map { $0 &+ 1 == view.seq } == true
            current!.seq = view.kind == .deviceName ? nil : view.seq
            if continues { return view.length + view.length / 16 + 2 }
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
        let parts = sealed.split(into: sealed.bytes.count < 1 << 20 ? 1 : EveryCore.parts)
        let results = try EveryCore.map(parts.count) { index throws(EncryptionError) in
            try openPart(parts[index], keys: keys, framed: framed)
        }
        if results.count == 1 { return results[0] }
        var records = EncodedRecords()
        records.reserve(bytes: results.reduce(0) { $0 + $1.bytes.count })
        var frames = framed ? RecordFrames.Received(bytes: [], counts: []) : nil
        for part in results {
            part.bytes.withUnsafeBytes { records.append(validated: $0, count: part.count) }
            if let kept = part.frames { frames?.append(contentsOf: kept) }
        }
        if let frames { records.keep(readFrom: frames) }
        return records
    }

    /// Opens `sealed` in order on this thread; with `framed`, keeping the frames of its records:
    /// a run's as its block compressed (the block a frame writer writes for its events, checked
    /// as the one layout, §3.5), the records between runs as a frame writer frames them.
    private static func openPart(_ sealed: SealedRecords, keys: KeyRing, framed: Bool) throws(EncryptionError) -> EncodedRecords {
        var records = EncodedRecords()
        // About 40 bytes an event opened (a station edit without a memo is 38).
        var events = 0
        sealed.forEach { events += Int($0.eventCount) }
        records.reserve(bytes: events * 40)
        var failure: EncryptionError?
        let runs = RunSealer()
        // The frames kept so far, and the records after them not yet framed (events sealed
        // alone and names, framed together when a run or the end comes).
        var frames = framed ? RecordFrames.Received(bytes: [], counts: []) : nil
        let writer = framed ? RecordFrames.Writer() : nil
        var unframed = (offset: 0, count: 0)
        func frameUnframed() {
            if unframed.count > 0, let writer {
                var bytes: [UInt8] = []
                let counts = records.bytes.withUnsafeBytes {
                    writer.encode(UnsafeRawBufferPointer(rebasing: $0[unframed.offset...]), appendingTo: &bytes)
                }
                frames?.append(contentsOf: RecordFrames.Received(bytes: bytes, counts: counts))
            }
            unframed = (records.bytes.count, 0)
        }
        sealed.forEach { view in
            guard failure == nil else { return }
            guard let key = keys.key(epoch: view.epoch) else {
                failure = missingKey(epoch: view.epoch, current: keys.current.epoch)
                return
            }
            do throws(SealingError) {
                // Opening checked them as segment-format.md §3 does (§3.3 step 5, §3.5).
                if view.kind == .run {
                    frameUnframed()
                    try runs.open(SealedRecord(view), with: key, appendingTo: &records) { block in
                        frames?.append(compressing: block, count: Int(view.eventCount))
                    }
                    unframed.offset = records.bytes.count
                } else {
                    let record = try RecordSealer.open(SealedRecord(view), with: key)
                    record.withUnsafeBytes { records.append(validated: $0, count: 1) }
                    unframed.count += 1
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
        frameUnframed()
        if let frames { records.keep(readFrom: frames) }
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
