/// Appends records to a byte buffer in the raw record stream format
/// (little-endian, fixed-width fields; Schemas/segment-format.md §3).
package struct RecordEncoder {
    package private(set) var bytes: [UInt8] = []
    package private(set) var recordCount = 0

    package init(reservingCapacity capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    package mutating func removeAll(keepingCapacity: Bool = true) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
        recordCount = 0
    }

    /// The canonical encoding of one record (what a digest or a fingerprint of it hashes).
    package static func bytes(of record: LedgerRecord) -> [UInt8] {
        var encoder = RecordEncoder(reservingCapacity: encodedSize(of: record))
        encoder.append(record)
        return encoder.bytes
    }

    /// The bytes `record` takes in the stream.
    package static func encodedSize(of record: LedgerRecord) -> Int {
        switch record {
        case .stationEdit(let e):
            return RecordLayout.headerSize + RecordLayout.stationEditFixedBody + (e.memo?.utf8.count ?? 0)
        case .catalogVersion:
            return RecordLayout.headerSize + RecordLayout.catalogVersionBody
        case .deviceName(let r):
            return RecordLayout.headerSize + RecordLayout.deviceNameFixedBody
                + min(r.name.utf8.count, DeviceNameRecord.maximumNameBytes)
        case .knowledgeMark(let m):
            return RecordLayout.headerSize + RecordLayout.knowledgeMarkFixedBody
                + m.sortedEntries.count * RecordLayout.knowledgeMarkEntrySize
        }
    }

    package mutating func append(_ record: LedgerRecord) {
        switch record {
        case .stationEdit(let e): append(e)
        case .catalogVersion(let e): append(e)
        case .deviceName(let r): append(r)
        case .knowledgeMark(let m): append(m)
        }
    }

    /// Encodes a station edit. The memo must already be validated (≤ 4 KiB).
    ///
    /// The fixed part is assembled in a stack buffer and appended with one copy: appending it
    /// field by field cost about 900 instructions per event, most of a batched append
    /// (Benchmarks/NOTES.md).
    package mutating func append(_ e: StationEdit) {
        let memoCount = e.memo?.utf8.count ?? 0
        var flags: UInt8 = 0
        if e.compDate != nil { flags |= RecordLayout.flagHasCompDate }
        if e.memo != nil { flags |= RecordLayout.flagHasMemo }
        let compDateCode = e.compDate?.code ?? 0
        let h = RecordLayout.headerSize
        withUnsafeTemporaryAllocation(byteCount: h + RecordLayout.stationEditFixedBody, alignment: 8) { p in
            p.storeBytes(of: RecordKind.stationEdit.rawValue, toByteOffset: 0, as: UInt8.self)
            p.storeBytes(of: flags, toByteOffset: 1, as: UInt8.self)
            p.storeBytes(of: UInt16(RecordLayout.stationEditFixedBody + memoCount).littleEndian, toByteOffset: 2, as: UInt16.self)
            p.storeBytes(of: e.id.device.rawValue.littleEndian, toByteOffset: h, as: UInt64.self)
            p.storeBytes(of: e.id.seq.littleEndian, toByteOffset: h + 8, as: UInt64.self)
            p.storeBytes(of: e.hlc.rawValue.littleEndian, toByteOffset: h + 16, as: UInt64.self)
            p.storeBytes(of: e.station.littleEndian, toByteOffset: h + 24, as: UInt32.self)
            p.storeBytes(of: compDateCode.littleEndian, toByteOffset: h + 28, as: UInt32.self)
            p.storeBytes(of: e.origin.rawValue, toByteOffset: h + 32, as: UInt8.self)
            p.storeBytes(of: 0, toByteOffset: h + 33, as: UInt8.self)
            bytes.append(contentsOf: UnsafeRawBufferPointer(p))
        }
        if memoCount > 0, let memo = e.memo { bytes.append(contentsOf: memo.utf8) }
        recordCount += 1
    }

    package mutating func append(_ e: CatalogVersionEvent) {
        appendHeader(.catalogVersion, flags: 0, bodyLength: RecordLayout.catalogVersionBody)
        put(e.id.device.rawValue)
        put(e.id.seq)
        put(e.hlc.rawValue)
        put(e.version)
        put(UInt16(0))
        recordCount += 1
    }

    package mutating func append(_ r: DeviceNameRecord) {
        let name = Array(r.name.utf8.prefix(DeviceNameRecord.maximumNameBytes))
        appendHeader(.deviceName, flags: 0, bodyLength: RecordLayout.deviceNameFixedBody + name.count)
        put(r.device.rawValue)
        put(r.hlc.rawValue)
        bytes.append(contentsOf: name)
        recordCount += 1
    }

    /// Encodes a knowledge mark; entries go out sorted by device (at most `maximumEntries`).
    package mutating func append(_ m: KnowledgeMark) {
        let entries = m.sortedEntries
        appendHeader(.knowledgeMark, flags: 0,
                     bodyLength: RecordLayout.knowledgeMarkFixedBody + entries.count * RecordLayout.knowledgeMarkEntrySize)
        put(m.id.device.rawValue)
        put(m.id.seq)
        put(m.hlc.rawValue)
        put(UInt32(entries.count))
        for (device, seq) in entries {
            put(device.rawValue)
            put(seq)
        }
        recordCount += 1
    }

    private mutating func appendHeader(_ kind: RecordKind, flags: UInt8, bodyLength: Int) {
        bytes.append(kind.rawValue)
        bytes.append(flags)
        put(UInt16(bodyLength))
    }

    private mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
