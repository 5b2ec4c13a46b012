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
        }
    }

    package mutating func append(_ record: LedgerRecord) {
        switch record {
        case .stationEdit(let e): append(e)
        case .catalogVersion(let e): append(e)
        case .deviceName(let r): append(r)
        }
    }

    /// Encodes a station edit. The memo must already be validated (≤ 4 KiB).
    package mutating func append(_ e: StationEdit) {
        let memoBytes = e.memo.map { Array($0.utf8) } ?? []
        var flags: UInt8 = 0
        if e.compDate != nil { flags |= RecordLayout.flagHasCompDate }
        if e.memo != nil { flags |= RecordLayout.flagHasMemo }
        appendHeader(.stationEdit, flags: flags, bodyLength: RecordLayout.stationEditFixedBody + memoBytes.count)
        put(e.id.device.rawValue)
        put(e.id.seq)
        put(e.hlc.rawValue)
        put(e.station)
        put(e.compDate?.code ?? 0)
        bytes.append(e.origin.rawValue)
        bytes.append(0)
        bytes.append(contentsOf: memoBytes)
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

    private mutating func appendHeader(_ kind: RecordKind, flags: UInt8, bodyLength: Int) {
        bytes.append(kind.rawValue)
        bytes.append(flags)
        put(UInt16(bodyLength))
    }

    private mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
