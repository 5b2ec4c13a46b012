import LedgerCore

/// A record as an end-to-end encrypted account's server holds it (Schemas/encryption.md §3): the
/// fields the server needs in the clear, the rest sealed under one epoch's data key.
package struct SealedRecord: Equatable, Sendable {
    /// What the seal holds, in the clear: an event (a seq-bearing record) or a device name.
    package typealias Kind = SealedRecordKind

    package var kind: Kind
    package var device: DeviceID
    /// The event's seq; 0 for a name, which has none.
    package var seq: UInt64
    package var epoch: UInt32
    /// The synthetic nonce: the keyed content id (12 bytes).
    package var nonce: [UInt8]
    /// The ciphertext of the padded record, then the 16-byte tag.
    package var ciphertext: [UInt8]

    package init(kind: Kind, device: DeviceID, seq: UInt64, epoch: UInt32, nonce: [UInt8], ciphertext: [UInt8]) {
        self.kind = kind
        self.device = device
        self.seq = seq
        self.epoch = epoch
        self.nonce = nonce
        self.ciphertext = ciphertext
    }

    /// The one sealed record a view shows, copied out of its frame.
    package init(_ view: SealedRecordView) {
        self.init(kind: view.kind, device: view.device, seq: view.seq, epoch: view.epoch,
                  nonce: Array(view.nonce), ciphertext: Array(view.ciphertext))
    }

    /// The record as a log and the wire hold it (Schemas/segment-format.md §3.6): kind 5 or 6,
    /// flags 0, the body's length, then device, an event's seq, the epoch, the nonce and the
    /// ciphertext with its tag. `RecordSealer.seal` never makes one whose body passes 65,535 bytes.
    package var recordBytes: [UInt8] {
        let body = SealedRecordLayout.fixedBody(kind) + ciphertext.count
        var bytes: [UInt8] = [kind.rawValue, 0]
        bytes.reserveCapacity(RecordLayout.headerSize + body)
        bytes.appendLittleEndian(UInt16(body))
        bytes.appendLittleEndian(device.rawValue)
        if kind == .event { bytes.appendLittleEndian(seq) }
        bytes.appendLittleEndian(epoch)
        bytes += nonce
        bytes += ciphertext
        return bytes
    }

    /// The associated data of the seal: "ORTSBSEAL1", the kind, device, seq and epoch (31 bytes).
    package var associatedData: [UInt8] {
        var bytes = Array("ORTSBSEAL1".utf8)
        bytes.reserveCapacity(31)
        bytes.append(kind.rawValue)
        bytes.appendLittleEndian(device.rawValue)
        bytes.appendLittleEndian(seq)
        bytes.appendLittleEndian(epoch)
        return bytes
    }
}

extension SealedRecords {
    /// Appends a record the sealer made (`RecordSealer.seal` makes only records §3.6 accepts).
    package mutating func append(_ record: SealedRecord) {
        record.recordBytes.withUnsafeBytes { append(validated: $0, count: 1) }
    }

    /// The records, copied out (for tests and messages; walk `forEach` otherwise).
    package var records: [SealedRecord] {
        var records: [SealedRecord] = []
        records.reserveCapacity(count)
        forEach { records.append(SealedRecord($0)) }
        return records
    }
}
