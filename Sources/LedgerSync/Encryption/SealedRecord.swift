import LedgerCore

/// A record as an end-to-end encrypted account's server holds it (Schemas/encryption.md §3): the
/// fields the server needs in the clear, the rest sealed under one epoch's data key.
package struct SealedRecord: Equatable, Sendable {
    /// What the seal holds, in the clear: an event (a seq-bearing record) or a device name.
    package typealias Kind = SealedRecordKind

    package var kind: Kind
    package var device: DeviceID
    /// The event's seq, a run's last seq; 0 for a name, which has none.
    package var seq: UInt64
    /// A run's first seq (encryption.md §3.5); an event's seq; 0 for a name.
    package var firstSeq: UInt64
    package var epoch: UInt32
    /// The synthetic nonce: the keyed content id (12 bytes).
    package var nonce: [UInt8]
    /// The ciphertext of the padded record, then the 16-byte tag.
    package var ciphertext: [UInt8]

    /// `firstSeq` is a run's first seq; a sealed event's is its seq, a name's 0.
    package init(kind: Kind, device: DeviceID, firstSeq: UInt64? = nil, seq: UInt64, epoch: UInt32, nonce: [UInt8],
                 ciphertext: [UInt8]) {
        self.kind = kind
        self.device = device
        self.seq = seq
        self.firstSeq = firstSeq ?? seq
        self.epoch = epoch
        self.nonce = nonce
        self.ciphertext = ciphertext
    }

    /// The one sealed record a view shows, copied out of its frame.
    package init(_ view: SealedRecordView) {
        self.init(kind: view.kind, device: view.device, firstSeq: view.firstSeq, seq: view.seq, epoch: view.epoch,
                  nonce: Array(view.nonce), ciphertext: Array(view.ciphertext))
    }

    /// The record as a log and the wire hold it (Schemas/segment-format.md §3.6): kind 5, 6 or
    /// 7, flags 0, the body's length, then device, an event's seq (a run's first and last), the
    /// epoch, the nonce and the ciphertext with its tag. The sealers never make one whose body
    /// passes 65,535 bytes.
    package var recordBytes: [UInt8] {
        let body = SealedRecordLayout.fixedBody(kind) + ciphertext.count
        var bytes: [UInt8] = [kind.rawValue, 0]
        bytes.reserveCapacity(RecordLayout.headerSize + body)
        bytes.appendLittleEndian(UInt16(body))
        bytes.appendLittleEndian(device.rawValue)
        if kind == .run { bytes.appendLittleEndian(firstSeq) }
        if kind.holdsEvents { bytes.appendLittleEndian(seq) }
        bytes.appendLittleEndian(epoch)
        bytes += nonce
        bytes += ciphertext
        return bytes
    }

    /// The associated data of the seal: "ORTSBSEAL1", the kind, device, seq and epoch (31 bytes);
    /// a run's names its first and last seq (39 bytes, encryption.md §3.5).
    package var associatedData: [UInt8] {
        var bytes = Array("ORTSBSEAL1".utf8)
        bytes.reserveCapacity(39)
        bytes.append(kind.rawValue)
        bytes.appendLittleEndian(device.rawValue)
        if kind == .run { bytes.appendLittleEndian(firstSeq) }
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
