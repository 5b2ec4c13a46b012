import LedgerCore
import LedgerSync

/// What `sync` does to the records of an end-to-end encrypted account (Schemas/encryption.md §11
/// "The client"): the device's own ledger stays plaintext, so it seals what it pushes and opens
/// what it pulls (then admits the opened records as merge.md §2.1 says, so that the clock and
/// content checks happen on the device).
package enum SyncSealing {
    /// Every record of a push sealed under `key` (§3): events (kinds 1, 2, 4) as kind 5, device
    /// names (kind 3) as kind 6, in order. Deterministic: the same records and key give the
    /// same bytes on any device (§3.2).
    /// - Throws: `EncryptionError` `.unsealable` for a record the sealer refuses (a knowledge
    ///   mark of more than 4,090 entries, segment-format.md §3.6).
    package static func seal(_ records: EncodedRecords, with key: DataKey) throws(EncryptionError) -> SealedRecords {
        var sealed = SealedRecords()
        // A sealed record is its record padded to 32, plus 36 bytes of clear fields and 16 of tag.
        sealed.reserve(bytes: records.bytes.count + records.count * 84)
        var failure: EncryptionError?
        records.forEach { view in
            guard failure == nil else { return }
            do throws(SealingError) {
                sealed.append(try RecordSealer.seal(recordBytes(view), with: key))
            } catch {
                failure = EncryptionError(.unsealable(device: view.device, seq: view.seq, reason: error),
                                          "the record of device \(view.device) seq \(view.seq) cannot be sealed: \(describe(error))")
            }
        }
        if let failure { throw failure }
        return sealed
    }

    /// The stored length of `view` once sealed (segment-format.md §3.6: the header, the clear
    /// fields, the record padded to 32, the tag), for cutting a push into pages by what it will
    /// weigh on the wire (`EncodedRecords.pages(records:bytes:size:)`): ciphertext does not
    /// compress, so a sealed page's frames are about as large as its sealed records.
    package static func sealedLength(of view: RecordView) -> Int {
        let kind: SealedRecordKind = view.kind == .deviceName ? .name : .event
        return RecordLayout.headerSize + SealedRecordLayout.fixedBody(kind) + RecordSealer.paddedLength(view.length)
            + SealedRecordLayout.tagSize
    }

    /// Every sealed record opened with its epoch's key from `keys`, as the plaintext records
    /// they hold, in order; each checked as §3.3 says.
    /// - Throws: `EncryptionError` `.missingKey(epoch:)` for a record of an epoch the ring lacks
    ///   (the sentence says how to get it), `.unopenable(device:seq:reason:)` for one that does
    ///   not open under its epoch's key.
    package static func open(_ sealed: SealedRecords, keys: KeyRing) throws(EncryptionError) -> EncodedRecords {
        var records = EncodedRecords()
        records.reserve(bytes: sealed.bytes.count)
        var failure: EncryptionError?
        sealed.forEach { view in
            guard failure == nil else { return }
            guard let key = keys.key(epoch: view.epoch) else {
                failure = missingKey(epoch: view.epoch, current: keys.current.epoch)
                return
            }
            do throws(SealingError) {
                let record = try RecordSealer.open(SealedRecord(view), with: key)
                // Opening checked it as segment-format.md §3 does (§3.3 step 5).
                record.withUnsafeBytes { records.append(validated: $0, count: 1) }
            } catch {
                let what = view.kind == .event ? "the event of device \(view.device) seq \(view.seq)" : "a device name of device \(view.device)"
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
            throw EncryptionError(.unsealable(device: view.device, seq: view.seq, reason: error),
                                  "the record of device \(view.device) seq \(view.seq) cannot be sealed: \(describe(error))")
        }
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
