/// The two kinds of record an end-to-end encrypted account's log holds instead of kinds 1–4
/// (Schemas/segment-format.md §3.6, Schemas/encryption.md §3): a record sealed under one epoch's
/// data key, with only what the server needs in the clear.
package enum SealedRecordKind: UInt8, Sendable {
    /// A sealed event: a station edit, a catalogue version or a knowledge mark (it has a seq).
    case event = 5
    /// A sealed device name (no seq).
    case name = 6
}

/// Byte layout of the sealed kinds (segment-format.md §3.6).
package enum SealedRecordLayout {
    /// device u64, seq u64, epoch u32, nonce (12 bytes).
    package static let eventFixedBody = 32
    /// device u64, epoch u32, nonce (12 bytes).
    package static let nameFixedBody = 24
    package static let nonceSize = 12
    package static let tagSize = 16
    /// The sealed plaintext is a positive multiple of this many bytes.
    package static let paddingUnit = 32

    /// Where the epoch is in the body of `kind`.
    @inline(__always)
    package static func epochOffset(_ kind: SealedRecordKind) -> Int { kind == .event ? 16 : 8 }

    /// The body's fixed part for `kind`.
    @inline(__always)
    package static func fixedBody(_ kind: SealedRecordKind) -> Int { kind == .event ? eventFixedBody : nameFixedBody }
}

/// A zero-copy view of one sealed record, valid only inside the visitor call that received it.
package struct SealedRecordView {
    package let base: UnsafeRawPointer
    /// Header plus body, in bytes.
    package let length: Int
    package let kind: SealedRecordKind

    @inline(__always)
    private func read<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
        T(littleEndian: base.loadUnaligned(fromByteOffset: RecordLayout.headerSize + offset, as: T.self))
    }

    package var device: DeviceID { DeviceID(rawValue: read(0, as: UInt64.self)) }
    /// The sealed event's seq; 0 for a sealed name.
    package var seq: UInt64 { kind == .event ? read(8, as: UInt64.self) : 0 }
    package var epoch: UInt32 { read(SealedRecordLayout.epochOffset(kind), as: UInt32.self) }
    /// The synthetic nonce, the keyed content id (encryption.md §3.2).
    package var nonce: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + RecordLayout.headerSize + SealedRecordLayout.epochOffset(kind) + 4,
                               count: SealedRecordLayout.nonceSize)
    }
    /// The ciphertext of the padded record, then its 16-byte tag.
    package var ciphertext: UnsafeRawBufferPointer {
        let start = RecordLayout.headerSize + SealedRecordLayout.fixedBody(kind)
        return UnsafeRawBufferPointer(start: base + start, count: length - start)
    }
    /// The whole record as it is stored.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: length) }
}

/// Walks a stream of sealed records (an encrypted account's), checking each as §3.6 says before
/// handing out a view. What is inside a seal is checked only by a device that opens it.
package enum SealedRecordStream {
    package static func forEach(in bytes: UnsafeRawBufferPointer, _ body: (SealedRecordView) throws -> Void) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= RecordLayout.headerSize else {
                throw RecordStream.Fault(offset: offset, reason: "a record header is cut off")
            }
            let p = base + offset
            let kindByte = p.load(as: UInt8.self)
            let bodyLength = Int(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
            let length = RecordLayout.headerSize + bodyLength
            guard length <= bytes.count - offset else { throw RecordStream.Fault(offset: offset, reason: "a record runs past its frame") }
            guard let kind = SealedRecordKind(rawValue: kindByte) else {
                let what = RecordKind(rawValue: kindByte) == nil ? "unknown record kind \(kindByte)" : "a plaintext record (kind \(kindByte))"
                throw RecordStream.Fault(offset: offset, reason: "\(what) where only sealed records may be")
            }
            let view = SealedRecordView(base: p, length: length, kind: kind)
            let sealedLength = bodyLength - SealedRecordLayout.fixedBody(kind) - SealedRecordLayout.tagSize
            guard p.load(fromByteOffset: 1, as: UInt8.self) == 0, sealedLength > 0,
                  sealedLength % SealedRecordLayout.paddingUnit == 0 else {
                throw RecordStream.Fault(offset: offset, reason: "a sealed record has bad flags or a bad length \(bodyLength)")
            }
            guard view.device.rawValue != 0, kind == .name || view.seq > 0, view.epoch > 0 else {
                throw RecordStream.Fault(offset: offset, reason: "a sealed record has a zero device, seq or epoch")
            }
            try body(view)
            offset += length
        }
    }
}
