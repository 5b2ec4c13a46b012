import Foundation
import LedgerCore

/// Seals one device's consecutive events as one sealed run (kind 7) and opens it again
/// (Schemas/encryption.md §3.5). The plaintext is the run's one canonical block (segment-format.md
/// §2a), so sealing is deterministic as `RecordSealer`'s is: the same events sealed as one run
/// under one epoch give the same bytes on every device. One per sealing or opening pass: it keeps
/// the block codec's scratch memory from run to run. Not thread-safe.
package final class RunSealer {
    private let codec = RunBlockCodec()
    private var block: [UInt8] = []

    package init() {}

    /// Seals `records`, the events `first … last` of `device` (valid records of kinds 1, 2 or 4,
    /// in seq order, each seq once), as a kind-7 record under `key`.
    /// - Throws: `.record` when the run's padded block would pass 65,472 bytes (a writer cuts
    ///   runs well below it, §3.5).
    package func seal(_ records: UnsafeRawBufferPointer, device: DeviceID, first: UInt64, last: UInt64,
                      with key: DataKey) throws(SealingError) -> SealedRecord {
        block.removeAll(keepingCapacity: true)
        codec.encode(records, appendingTo: &block)
        let padded = RecordSealer.paddedLength(block.count)
        guard padded <= SealedRecordLayout.maximumRunPlaintext else {
            throw .record("the run of device \(device) seqs \(first)–\(last) is too long to seal (a block of \(block.count) bytes)")
        }
        block.append(contentsOf: repeatElement(0, count: padded - block.count))
        return RecordSealer.seal(padded: block, as: SealedRecord(kind: .run, device: device, firstSeq: first, seq: last, epoch: key.epoch,
                                                               nonce: [], ciphertext: []), with: key)
    }

    /// The events `sealed` (a kind-7 record) holds, as their raw record stream, checked as §3.5
    /// says; `key` must be the key of its epoch.
    package func open(_ sealed: SealedRecord, with key: DataKey) throws(SealingError) -> [UInt8] {
        var events = EncodedRecords()
        try open(sealed, with: key, appendingTo: &events)
        return events.bytes
    }

    /// The same, appending the events to `events` (checked, so appended as validated); `block`
    /// is first handed the run's block, checked as the one layout of these events: the block a
    /// frame writer writes for them (segment-format.md §2a), which a device may keep as a frame.
    package func open(_ sealed: SealedRecord, with key: DataKey, appendingTo events: inout EncodedRecords,
                      block: (UnsafeRawBufferPointer) -> Void = { _ in }) throws(SealingError) {
        guard sealed.kind == .run else { throw .length }
        let plaintext = try RecordSealer.authenticatedPlaintext(of: sealed, with: key)
        try plaintext.withUnsafeBytes { raw in
            Result { () throws(SealingError) in try append(eventsIn: raw, of: sealed, to: &events, block: block) }
        }.get()
    }

    /// Appends the events of an authenticated run's plaintext to `events`, checked as §3.5's
    /// steps 4–7 say.
    private func append(eventsIn raw: UnsafeRawBufferPointer, of sealed: SealedRecord, to events: inout EncodedRecords,
                        block checked: (UnsafeRawBufferPointer) -> Void) throws(SealingError) {
        // Exactly the padding a sealer writes: a longer one would be a second sealed form.
        guard let length = RunBlockCodec.blockLength(raw), length <= raw.count,
              raw.count == RecordSealer.paddedLength(length), raw[length...].allSatisfy({ $0 == 0 }) else { throw .padding }
        // Valid until the codec's next call.
        let records: UnsafeRawBufferPointer
        do throws(RecordStream.Fault) {
            records = try codec.decode(UnsafeRawBufferPointer(rebasing: raw[..<length]))
        } catch {
            throw .record(error.reason)
        }
        let fault = try Self.fault(in: records, of: sealed)
        // The one layout of these events: another would be a second sealed form of them.
        block.removeAll(keepingCapacity: true)
        codec.encode(records, appendingTo: &block)
        let laidOut = block.withUnsafeBytes { $0.count == length && memcmp($0.baseAddress!, raw.baseAddress!, length) == 0 }
        guard laidOut else { throw .record("the run's block is not laid out as a writer lays it out") }
        if let fault { throw fault }
        checked(UnsafeRawBufferPointer(rebasing: raw[..<length]))
        events.append(validated: records, count: Int(sealed.seq - sealed.firstSeq + 1))
    }

    /// Checks every record is valid (segment-format.md §3, else throws `.record`), then returns
    /// the first of §3.5's later refusals that applies: `.kind` when one is not an event (kinds
    /// 1, 2, 4), else `.identity` when one is of another device or the seqs are not exactly
    /// `first … last` in order; nil when none does.
    private static func fault(in records: UnsafeRawBufferPointer, of sealed: SealedRecord) throws(SealingError) -> SealingError? {
        var next = sealed.firstSeq
        var (otherKind, otherIdentity) = (false, false)
        do {
            try RecordStream.forEach(in: records) { (view) throws -> Void in
                if view.kind == .deviceName {
                    otherKind = true
                } else if view.device != sealed.device || view.seq != next || next > sealed.seq {
                    otherIdentity = true
                }
                next &+= 1
            }
        } catch let fault as RecordStream.Fault {
            throw .record(fault.reason)
        } catch {
            throw .record("\(error)")
        }
        if otherKind { return .kind }
        return otherIdentity || next != sealed.seq &+ 1 ? .identity : nil
    }
}
