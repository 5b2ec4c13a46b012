/// A zero-copy view of one record inside a decompressed frame.
///
/// The replay path hands these to its visitor so that decoding a fixed-width event costs a few
/// loads and no allocation; only `memo` and `deviceName` build a `String`, and only when asked.
/// A view is valid only inside the visitor call that received it.
package struct RecordView {
    package let base: UnsafeRawPointer
    /// Header plus body, in bytes.
    package let length: Int

    init(base: UnsafeRawPointer, length: Int) {
        (self.base, self.length) = (base, length)
    }

    /// A view of record bytes that a `RecordStream` validated before and the caller copied
    /// out of their frame (a merge keeps the other ledger's records as bytes).
    package init(validated base: UnsafeRawPointer, length: Int) {
        self.init(base: base, length: length)
    }

    package var kind: RecordKind { RecordKind(rawValue: base.load(as: UInt8.self))! }
    package var flags: UInt8 { base.load(fromByteOffset: 1, as: UInt8.self) }

    // The accessors a scan calls for every record are forced inline and test the kind byte
    // directly (the stream checked it when it handed out the view): verify and replay spend
    // most of their non-LZ4 time here.
    @inline(__always)
    private func read<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
        T(littleEndian: base.loadUnaligned(fromByteOffset: RecordLayout.headerSize + offset, as: T.self))
    }

    @inline(__always)
    private var isDeviceName: Bool { base.load(as: UInt8.self) == RecordKind.deviceName.rawValue }

    /// The writing device (every kind).
    @inline(__always)
    package var device: DeviceID { DeviceID(rawValue: read(0, as: UInt64.self)) }
    /// The per-device sequence number; 0 for kinds without one.
    @inline(__always)
    package var seq: UInt64 { isDeviceName ? 0 : read(8, as: UInt64.self) }
    @inline(__always)
    package var hlc: HybridTimestamp {
        HybridTimestamp(rawValue: read(isDeviceName ? 8 : 16, as: UInt64.self))
    }
    @inline(__always)
    package var hasEventID: Bool { !isDeviceName }
    package var eventID: EventID { EventID(device: device, seq: seq) }

    // Station edit fields.
    package var station: UInt32 { read(24, as: UInt32.self) }
    package var hasCompDate: Bool { flags & RecordLayout.flagHasCompDate != 0 }
    package var compDateCode: UInt32 { read(28, as: UInt32.self) }
    package var hasMemo: Bool { flags & RecordLayout.flagHasMemo != 0 }
    package var origin: EventOrigin { EventOrigin(rawValue: read(32, as: UInt8.self)) ?? .user }
    package var memoBytes: UnsafeRawBufferPointer {
        let start = RecordLayout.headerSize + RecordLayout.stationEditFixedBody
        return UnsafeRawBufferPointer(start: base + start, count: length - start)
    }
    package var memo: String? {
        hasMemo ? String(decoding: memoBytes, as: UTF8.self) : nil
    }

    // Catalogue version field.
    package var catalogVersion: UInt32 { read(24, as: UInt32.self) }

    // Knowledge mark entries.
    package var knowledgeCount: Int { Int(read(24, as: UInt32.self)) }
    /// Entry `i` of a knowledge mark: (device, highest seq seen).
    package func knowledgeEntry(_ i: Int) -> (device: DeviceID, seq: UInt64) {
        let offset = RecordLayout.knowledgeMarkFixedBody + i * RecordLayout.knowledgeMarkEntrySize
        return (DeviceID(rawValue: read(offset, as: UInt64.self)), read(offset + 8, as: UInt64.self))
    }

    // Device name field.
    package var deviceName: String {
        let start = RecordLayout.headerSize + RecordLayout.deviceNameFixedBody
        return String(decoding: UnsafeRawBufferPointer(start: base + start, count: length - start), as: UTF8.self)
    }

    /// Materialises the record (allocates for strings).
    package var record: LedgerRecord {
        switch kind {
        case .stationEdit:
            return .stationEdit(StationEdit(
                id: eventID, hlc: hlc, station: station,
                compDate: hasCompDate ? (try? CompletionDate(code: compDateCode)) : nil,
                memo: memo, origin: origin))
        case .catalogVersion:
            return .catalogVersion(CatalogVersionEvent(id: eventID, hlc: hlc, version: catalogVersion))
        case .deviceName:
            return .deviceName(DeviceNameRecord(device: device, hlc: hlc, name: deviceName))
        case .knowledgeMark:
            var knowledge: [DeviceID: UInt64] = [:]
            for i in 0..<knowledgeCount {
                let entry = knowledgeEntry(i)
                knowledge[entry.device] = entry.seq
            }
            return .knowledgeMark(KnowledgeMark(id: eventID, hlc: hlc, knowledge: knowledge))
        }
    }
}

/// Walks the records of one decompressed frame, validating each before handing out a view.
package enum RecordStream {
    /// Why a record stream is malformed; `offset` is relative to the start of the frame content.
    package struct Fault: Error, Sendable {
        package var offset: Int
        package var reason: String
    }

    /// The length of the record at `base`, from its header (§3): for streams checked before.
    @inline(__always)
    package static func validatedLength(at base: UnsafeRawPointer) -> Int {
        RecordLayout.headerSize + Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
    }

    /// Calls `body` for every record of a stream that was checked when it was read or encoded
    /// (a frame's decoded records, `EncodedRecords`): only the lengths are read again.
    package static func forEachValidated(in bytes: UnsafeRawBufferPointer, _ body: (RecordView) throws -> Void) rethrows {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let length = validatedLength(at: base + offset)
            try body(RecordView(validated: base + offset, length: length))
            offset += length
        }
    }

    /// Calls `body` for every record in `bytes`. Validation covers lengths, kinds, flags,
    /// comp_date codes, memo UTF-8 and size, so a view handed out is always well-formed.
    package static func forEach(
        in bytes: UnsafeRawBufferPointer, _ body: (RecordView) throws -> Void
    ) throws {
        try forEach(in: bytes) { (view) throws -> RecordIteration in
            try body(view)
            return .continue
        }
    }

    /// The same, stopping early when `body` says so; returns `.stop` if it did.
    @discardableResult
    package static func forEach(
        in bytes: UnsafeRawBufferPointer, _ body: (RecordView) throws -> RecordIteration
    ) throws -> RecordIteration {
        guard let base = bytes.baseAddress else { return .continue }
        var offset = 0
        let end = bytes.count
        while offset < end {
            guard end - offset >= RecordLayout.headerSize else {
                throw Fault(offset: offset, reason: "a record header is cut off")
            }
            let p = base + offset
            let kindByte = p.load(as: UInt8.self)
            let flags = p.load(fromByteOffset: 1, as: UInt8.self)
            let bodyLength = Int(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
            let length = RecordLayout.headerSize + bodyLength
            guard length <= end - offset else { throw Fault(offset: offset, reason: "a record runs past its frame") }
            guard let kind = RecordKind(rawValue: kindByte) else {
                // An encrypted account's records (§3.6) are read only by SealedRecordStream.
                let what = SealedRecordKind(rawValue: kindByte) == nil ? "unknown record kind \(kindByte)"
                    : "a sealed record (kind \(kindByte)) where only plaintext records may be"
                throw Fault(offset: offset, reason: what)
            }
            let view = RecordView(base: p, length: length)
            switch kind {
            case .stationEdit:
                guard bodyLength >= RecordLayout.stationEditFixedBody,
                      bodyLength - RecordLayout.stationEditFixedBody <= StationEdit.maximumMemoBytes
                else { throw Fault(offset: offset, reason: "a station edit has a bad length \(bodyLength)") }
                guard flags & ~(RecordLayout.flagHasCompDate | RecordLayout.flagHasMemo) == 0,
                      flags != 0 else { throw Fault(offset: offset, reason: "a station edit has bad flags \(flags)") }
                guard view.seq > 0, view.station > 0, view.device.rawValue != 0 else {
                    throw Fault(offset: offset, reason: "a station edit has a zero device, seq or station")
                }
                if view.hasCompDate {
                    do { _ = try CompletionDate(code: view.compDateCode) } catch {
                        throw Fault(offset: offset, reason: error.description)
                    }
                } else if view.compDateCode != 0 {
                    throw Fault(offset: offset, reason: "a station edit without a date has a date code")
                }
                guard EventOrigin(rawValue: p.load(fromByteOffset: RecordLayout.headerSize + 32, as: UInt8.self)) != nil,
                      p.load(fromByteOffset: RecordLayout.headerSize + 33, as: UInt8.self) == 0
                else { throw Fault(offset: offset, reason: "a station edit has an unknown origin") }
                if view.hasMemo {
                    guard isValidUTF8(view.memoBytes) else { throw Fault(offset: offset, reason: "a memo is not UTF-8") }
                } else if bodyLength != RecordLayout.stationEditFixedBody {
                    throw Fault(offset: offset, reason: "a station edit without a memo has memo bytes")
                }
            case .catalogVersion:
                guard bodyLength == RecordLayout.catalogVersionBody, flags == 0,
                      view.seq > 0, view.device.rawValue != 0,
                      p.loadUnaligned(fromByteOffset: RecordLayout.headerSize + 28, as: UInt16.self) == 0
                else { throw Fault(offset: offset, reason: "a catalogue version record is malformed") }
            case .deviceName:
                guard bodyLength >= RecordLayout.deviceNameFixedBody,
                      bodyLength - RecordLayout.deviceNameFixedBody <= DeviceNameRecord.maximumNameBytes,
                      flags == 0, view.device.rawValue != 0
                else { throw Fault(offset: offset, reason: "a device name record is malformed") }
                let nameStart = RecordLayout.headerSize + RecordLayout.deviceNameFixedBody
                guard isValidUTF8(UnsafeRawBufferPointer(start: p + nameStart, count: length - nameStart)) else {
                    throw Fault(offset: offset, reason: "a device name is not UTF-8")
                }
            case .knowledgeMark:
                guard bodyLength >= RecordLayout.knowledgeMarkFixedBody, flags == 0,
                      view.seq > 0, view.device.rawValue != 0,
                      bodyLength == RecordLayout.knowledgeMarkFixedBody
                        + view.knowledgeCount * RecordLayout.knowledgeMarkEntrySize
                else { throw Fault(offset: offset, reason: "a knowledge mark is malformed") }
                var previous: UInt64 = 0
                for i in 0..<view.knowledgeCount {
                    let entry = view.knowledgeEntry(i)
                    guard entry.device.rawValue > previous, entry.seq > 0 else {
                        throw Fault(offset: offset, reason: "a knowledge mark's entries are not ascending devices with non-zero seqs")
                    }
                    previous = entry.device.rawValue
                }
            }
            if try body(view) == .stop { return .stop }
            offset += length
        }
        return .continue
    }

    package static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // Fast path: ASCII needs no decoding.
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
