import Crypto
import Foundation
import LedgerCore

/// Seals one record under a data key and opens it again (Schemas/encryption.md §3). Sealing is
/// deterministic: the nonce is an HMAC of the content, so every device that seals one event
/// under one epoch writes the same bytes, and a server without the key compares copies by bytes.
package enum RecordSealer {
    /// The padded plaintext is a multiple of this many bytes (the sizes are the stored form's,
    /// segment-format.md §3.6).
    package static let paddingUnit = SealedRecordLayout.paddingUnit
    package static let nonceByteCount = SealedRecordLayout.nonceSize
    package static let tagByteCount = SealedRecordLayout.tagSize

    /// Seals `record`, one record in the raw form of segment-format.md §3 that the format accepts.
    package static func seal(_ record: [UInt8], with key: DataKey) throws(SealingError) -> SealedRecord {
        let view = try singleRecord(record)
        let kind: SealedRecord.Kind = view.kind == .deviceName ? .name : .event
        // Its stored form's body (segment-format.md §3.6) must fit the header's u16: only a
        // knowledge mark of more than 4,090 entries would not.
        guard SealedRecordLayout.fixedBody(kind) + paddedLength(record.count) + tagByteCount <= Int(UInt16.max) else {
            throw .record("the record is too long to seal (\(record.count) bytes)")
        }
        var plaintext = record
        plaintext.append(contentsOf: repeatElement(0, count: paddedLength(record.count) - record.count))
        return seal(padded: plaintext, as: SealedRecord(kind: kind, device: view.device, seq: view.seq, epoch: key.epoch,
                                                      nonce: [], ciphertext: []), with: key)
    }

    /// `clear` (its clear fields) with `plaintext`, already padded, sealed under `key` (§3.2): the
    /// synthetic nonce over AD ‖ plaintext, then AES-256-GCM. One seal for a record and a run
    /// (`RunSealer`, §3.5), which differ only in what they pad and which clear fields AD names.
    package static func seal(padded plaintext: [UInt8], as clear: SealedRecord, with key: DataKey) -> SealedRecord {
        var sealed = clear
        let associatedData = sealed.associatedData
        sealed.nonce = syntheticNonce(associatedData: associatedData, plaintext: plaintext, key: key)
        do {
            let box = try AES.GCM.seal(plaintext, using: key.sealKey, nonce: AES.GCM.Nonce(data: sealed.nonce),
                                       authenticating: associatedData)
            sealed.ciphertext = Array(box.ciphertext) + Array(box.tag)
        } catch {
            // AES-GCM with a 32-byte key and a 12-byte nonce does not fail.
            preconditionFailure("AES-GCM refused a well-formed seal: \(error)")
        }
        return sealed
    }

    /// The padded plaintext of `sealed` after §3.3's steps 1–3, the same for a record and a run:
    /// lengths [`length`], authentication under `key` [`unauthentic`], the synthetic nonce
    /// [`noncanonical`]. What the plaintext must hold is the caller's to check.
    package static func authenticatedPlaintext(of sealed: SealedRecord, with key: DataKey) throws(SealingError) -> Data {
        let bodyCount = sealed.ciphertext.count - tagByteCount
        guard sealed.nonce.count == nonceByteCount, bodyCount > 0, bodyCount % paddingUnit == 0 else {
            throw .length
        }
        let associatedData = sealed.associatedData
        let plaintext: Data
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: sealed.nonce),
                                            ciphertext: sealed.ciphertext.prefix(bodyCount),
                                            tag: sealed.ciphertext.suffix(tagByteCount))
            plaintext = try AES.GCM.open(box, using: key.sealKey, authenticating: associatedData)
        } catch {
            throw .unauthentic
        }
        guard syntheticNonce(associatedData: associatedData, plaintext: plaintext, key: key) == sealed.nonce else {
            throw .noncanonical
        }
        return plaintext
    }

    /// The record `sealed` holds, checked as §3.3 says; `key` must be the key of its epoch.
    package static func open(_ sealed: SealedRecord, with key: DataKey) throws(SealingError) -> [UInt8] {
        let plaintext = Array(try authenticatedPlaintext(of: sealed, with: key))
        guard plaintext.count >= RecordLayout.headerSize else { throw .padding }
        let length = RecordLayout.headerSize + Int(UInt16(plaintext[2]) | UInt16(plaintext[3]) << 8)
        // Exactly the padding a sealer writes: a longer one would be a second sealed form of the record.
        guard length <= plaintext.count, plaintext.count == paddedLength(length),
              plaintext[length...].allSatisfy({ $0 == 0 }) else { throw .padding }
        let record = Array(plaintext[..<length])
        let view = try singleRecord(record)
        guard (view.kind == .deviceName) == (sealed.kind == .name) else { throw .kind }
        guard view.device == sealed.device, view.seq == sealed.seq else { throw .identity }
        return record
    }

    /// The padded plaintext's length for a record of `count` bytes.
    package static func paddedLength(_ count: Int) -> Int {
        (count + paddingUnit - 1) / paddingUnit * paddingUnit
    }

    /// The first 12 bytes of HMAC-SHA256(K_nonce, AD ‖ plaintext).
    package static func syntheticNonce(associatedData: [UInt8], plaintext: some DataProtocol, key: DataKey) -> [UInt8] {
        var mac = key.nonceMAC
        mac.update(data: associatedData)
        mac.update(data: plaintext)
        return mac.finalize().withUnsafeBytes { Array($0.prefix(nonceByteCount)) }
    }

    /// The kind, device and seq of `bytes`, which must be exactly one record §3 accepts.
    private static func singleRecord(_ bytes: [UInt8]) throws(SealingError) -> (kind: RecordKind, device: DeviceID, seq: UInt64) {
        var found: (kind: RecordKind, device: DeviceID, seq: UInt64)?
        var count = 0
        do {
            try bytes.withUnsafeBytes { raw in
                try RecordStream.forEach(in: raw) { (view) throws -> Void in
                    count += 1
                    found = (view.kind, view.device, view.seq)
                }
            }
        } catch let fault as RecordStream.Fault {
            throw .record(fault.reason)
        } catch {
            throw .record("\(error)")
        }
        guard count == 1, let found else { throw .record("not exactly one record") }
        return found
    }
}
