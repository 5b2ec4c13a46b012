/// The kinds of record an end-to-end encrypted account's log holds instead of kinds 1–4
/// (Schemas/segment-format.md §3.6, Schemas/encryption.md §3): records sealed under one epoch's
/// data key, with only what the server needs in the clear.
package enum SealedRecordKind: UInt8, Sendable {
    /// A sealed event: a station edit, a catalogue version or a knowledge mark (it has a seq).
    case event = 5
    /// A sealed device name (no seq).
    case name = 6
    /// A sealed run: one device's consecutive events `first … last` as one block (encryption.md §3.5).
    case run = 7

    /// Whether the record stands for events (kinds 5 and 7), which have seqs, rather than a name.
    @inline(__always)
    package var holdsEvents: Bool { self != .name }
}

/// Byte layout of the sealed kinds (segment-format.md §3.6).
package enum SealedRecordLayout {
    /// device u64, seq u64, epoch u32, nonce (12 bytes).
    package static let eventFixedBody = 32
    /// device u64, epoch u32, nonce (12 bytes).
    package static let nameFixedBody = 24
    /// device u64, first u64, last u64, epoch u32, nonce (12 bytes).
    package static let runFixedBody = 40
    /// A run's padded block is at most this long, so that its body fits the header's u16.
    package static let maximumRunPlaintext = 65_472
    /// A writer ends a run before its records' raw lengths together pass this many bytes, which
    /// keeps its padded block within `maximumRunPlaintext` (encryption.md §3.5).
    package static let maximumRunRecordBytes = 60_000
    package static let nonceSize = 12
    package static let tagSize = 16
    /// The sealed plaintext is a positive multiple of this many bytes.
    package static let paddingUnit = 32

    /// The most events a run's padded block of `padded` bytes could hold (segment-format.md
    /// §3.6): a block's header and device table take 52 bytes (§2a), and an event at least 7
    /// (three one-byte columns and four one-byte varints at least).
    package static func maximumRunEvents(padded: Int) -> Int { max(0, (padded - 52) / 7) }

    /// Where the epoch is in the body of `kind`.
    @inline(__always)
    package static func epochOffset(_ kind: SealedRecordKind) -> Int {
        switch kind {
        case .event: 16
        case .name: 8
        case .run: 24
        }
    }

    /// The body's fixed part for `kind`.
    @inline(__always)
    package static func fixedBody(_ kind: SealedRecordKind) -> Int {
        switch kind {
        case .event: eventFixedBody
        case .name: nameFixedBody
        case .run: runFixedBody
        }
    }
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
    /// The last seq it stands for: a sealed event's seq, a run's last; 0 for a sealed name.
    package var seq: UInt64 {
        switch kind {
        case .event: read(8, as: UInt64.self)
        case .name: 0
        case .run: read(16, as: UInt64.self)
        }
    }
    /// The first seq it stands for: a sealed event's seq, a run's first; 0 for a sealed name.
    package var firstSeq: UInt64 { kind == .name ? 0 : read(8, as: UInt64.self) }
    /// How many events it stands for: 1 for a sealed event, `last − first + 1` for a run.
    package var eventCount: UInt64 { kind.holdsEvents ? seq &- firstSeq &+ 1 : 0 }
    /// Whether it stands for the event `seq` of its device.
    @inline(__always)
    package func holds(seq wanted: UInt64) -> Bool { kind.holdsEvents && firstSeq <= wanted && wanted <= seq }
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
            guard view.device.rawValue != 0, kind == .name || view.firstSeq > 0, view.epoch > 0 else {
                throw RecordStream.Fault(offset: offset, reason: "a sealed record has a zero device, seq or epoch")
            }
            guard kind != .run || view.seq >= view.firstSeq else {
                throw RecordStream.Fault(offset: offset, reason: "a sealed run ends (seq \(view.seq)) before it starts (seq \(view.firstSeq))")
            }
            // A run stands for its events wherever they are counted and indexed: never for more
            // than its block could hold, so each costs the server bytes as a plaintext event does.
            guard kind != .run || view.eventCount <= UInt64(SealedRecordLayout.maximumRunEvents(padded: sealedLength)) else {
                throw RecordStream.Fault(offset: offset, reason: "a sealed run claims \(view.eventCount) events, more than its \(sealedLength) bytes could hold")
            }
            try body(view)
            offset += length
        }
    }
}
