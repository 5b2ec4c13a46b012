/// What a segment holds, kept as records are appended and written into the footer when the
/// segment is sealed. Opening a ledger reads these instead of scanning sealed segments.
package struct SegmentSummary: Equatable, Sendable {
    package struct DeviceRange: Equatable, Sendable {
        package var device: DeviceID
        package var firstSeq: UInt64
        package var lastSeq: UInt64
    }

    package var frameCount: UInt32 = 0
    package var recordCount: UInt64 = 0
    package var eventCount: UInt64 = 0
    package var rawBytes: UInt64 = 0
    package var minHLC = HybridTimestamp(rawValue: .max)
    package var maxHLC = HybridTimestamp.zero
    /// Per-device seq ranges, in first-appearance order.
    package var deviceRanges: [DeviceRange] = []
    /// Device name records in this segment (the latest per device).
    package var deviceNames: [DeviceNameRecord] = []
    private var rangeIndex: [DeviceID: Int] = [:]
    /// The range the previous event went to: events come in runs of one device.
    private var lastSlot = -1

    package init() {}

    package var isEmpty: Bool { recordCount == 0 }

    /// Accounts for one record. Seq continuity is checked by the ledger, not here.
    package mutating func add(_ view: RecordView) {
        if view.hasEventID {
            addEvent(hlc: view.hlc, device: view.device, seq: view.seq)
        } else {
            addName(DeviceNameRecord(device: view.device, hlc: view.hlc, name: view.deviceName))
        }
    }

    /// The same as `add(_ view:)` for a record being appended, without encoding it first.
    package mutating func add(_ record: LedgerRecord) {
        if case .deviceName(var name) = record {
            // As encoded (and so as a scan of the segment would see it).
            if name.name.utf8.count > DeviceNameRecord.maximumNameBytes {
                name.name = String(decoding: name.name.utf8.prefix(DeviceNameRecord.maximumNameBytes), as: UTF8.self)
            }
            addName(name)
        } else if let id = record.eventID {
            addEvent(hlc: record.hlc, device: id.device, seq: id.seq)
        }
    }

    /// Accounts for one sealed record (segment-format.md §3.6): an event by its clear device and
    /// seq, a name as a record only. Neither has an hlc in the clear: the summary's smallest and
    /// largest hlc are 0, and it holds no names, so that a footer and a scan agree.
    package mutating func add(_ view: SealedRecordView) {
        switch view.kind {
        case .event:
            addEvent(hlc: .zero, device: view.device, seq: view.seq)
        case .run:
            // One record standing for its events: the device range from its first to its last.
            addEvent(hlc: .zero, device: view.device, seq: view.firstSeq)
            if view.seq > view.firstSeq {
                addEvent(hlc: .zero, device: view.device, seq: view.seq)
                recordCount -= 1
            }
            eventCount += view.eventCount - min(view.eventCount, 2)
        case .name:
            recordCount += 1
            minHLC = .zero
        }
    }

    /// Accounts for one event (any kind with a seq) being appended.
    @inline(__always)
    package mutating func addEvent(hlc: HybridTimestamp, device: DeviceID, seq: UInt64) {
        recordCount += 1
        if hlc < minHLC { minHLC = hlc }
        if hlc > maxHLC { maxHLC = hlc }
        eventCount += 1
        if lastSlot >= 0, lastSlot < deviceRanges.count, deviceRanges[lastSlot].device == device {
            deviceRanges[lastSlot].lastSeq = seq
        } else if let i = rangeSlot(of: device) {
            deviceRanges[i].lastSeq = seq
            lastSlot = i
        } else {
            rangeIndex[device] = deviceRanges.count
            lastSlot = deviceRanges.count
            deviceRanges.append(DeviceRange(device: device, firstSeq: seq, lastSeq: seq))
        }
    }

    private mutating func addName(_ record: DeviceNameRecord) {
        recordCount += 1
        if record.hlc < minHLC { minHLC = record.hlc }
        if record.hlc > maxHLC { maxHLC = record.hlc }
        if let i = deviceNames.firstIndex(where: { $0.device == record.device }) {
            if record.hlc >= deviceNames[i].hlc { deviceNames[i] = record }
        } else {
            deviceNames.append(record)
        }
    }

    /// The index of `device`'s range. A linear search beats hashing for the few devices a
    /// segment usually holds; opening a ledger calls this once per record of the newest segment.
    @inline(__always)
    private func rangeSlot(of device: DeviceID) -> Int? {
        if deviceRanges.count <= 8 {
            for i in deviceRanges.indices where deviceRanges[i].device == device { return i }
            return nil
        }
        return rangeIndex[device]
    }

    package mutating func addFrame(rawBytes count: Int) {
        addFrames(1, rawBytes: count)
    }

    /// Frames appended as they were received, holding `count` bytes of records in all.
    package mutating func addFrames(_ frames: Int, rawBytes count: Int) {
        frameCount += UInt32(frames)
        rawBytes += UInt64(count)
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.frameCount, lhs.recordCount, lhs.eventCount, lhs.rawBytes, lhs.minHLC, lhs.maxHLC)
            == (rhs.frameCount, rhs.recordCount, rhs.eventCount, rhs.rawBytes, rhs.minHLC, rhs.maxHLC)
            && lhs.deviceRanges == rhs.deviceRanges && lhs.deviceNames == rhs.deviceNames
    }

    /// Rebuilds the lookup index after decoding.
    fileprivate mutating func reindex() {
        rangeIndex = Dictionary(uniqueKeysWithValues: deviceRanges.enumerated().map { ($1.device, $0) })
    }
}

/// The last frame of a sealed segment: an LZ4 skippable frame (magic 0x184D2A51) holding the
/// segment's summary, ending in a fixed trailer so that it can be found from the end of the file
/// (Schemas/segment-format.md §4).
enum SegmentFooter {
    static let skippableMagic: UInt32 = 0x184D_2A51
    static let payloadMagic: [UInt8] = Array("ORTSBFTR".utf8)
    static let trailerTag: [UInt8] = Array("FEND".utf8)
    /// u32 crc, u32 payload length, "FEND".
    static let trailerSize = 12

    static func encode(_ s: SegmentSummary, segmentNumber: UInt32) -> [UInt8] {
        var p = ByteWriter()
        p.append(payloadMagic)
        p.put(segmentNumber)
        p.put(s.frameCount)
        p.put(s.recordCount)
        p.put(s.eventCount)
        p.put(s.rawBytes)
        p.put(s.isEmpty ? 0 : s.minHLC.rawValue)
        p.put(s.maxHLC.rawValue)
        p.put(UInt32(s.deviceRanges.count))
        p.put(UInt32(s.deviceNames.count))
        for r in s.deviceRanges {
            p.put(r.device.rawValue)
            p.put(r.firstSeq)
            p.put(r.lastSeq)
        }
        for n in s.deviceNames {
            let name = Array(n.name.utf8.prefix(DeviceNameRecord.maximumNameBytes))
            p.put(n.device.rawValue)
            p.put(n.hlc.rawValue)
            p.put(UInt8(name.count))
            p.append(name)
        }
        let crc = CRC32C.checksum(p.bytes)
        p.put(crc)
        p.put(UInt32(p.bytes.count + 8))
        p.append(trailerTag)
        var frame = ByteWriter()
        frame.put(skippableMagic)
        frame.put(UInt32(p.bytes.count))
        frame.append(p.bytes)
        return frame.bytes
    }

    /// What the end of a segment file says about sealing.
    enum Trailing {
        /// No footer trailer: the segment is still open for appends.
        case absent
        case sealed(SegmentSummary, segmentNumber: UInt32, frameOffset: Int)
        /// A trailer is there but its frame does not decode.
        case damaged(frameOffset: Int)
    }

    /// Finds and decodes the footer at the end of a segment file's bytes.
    static func decodeTrailing(_ file: UnsafeRawBufferPointer) -> Trailing {
        let n = file.count
        guard n >= trailerSize, Array(file[(n - 4)...]) == trailerTag else { return .absent }
        let payloadLength = Int(file.loadLE(UInt32.self, at: n - 8))
        let frameOffset = n - payloadLength - 8
        guard payloadLength >= 64 + trailerSize, frameOffset >= 0 else { return .absent }
        guard let decoded = decodeFrame(UnsafeRawBufferPointer(rebasing: file[frameOffset...])) else {
            return .damaged(frameOffset: frameOffset)
        }
        return .sealed(decoded.summary, segmentNumber: decoded.segmentNumber, frameOffset: frameOffset)
    }

    /// Decodes a complete footer frame; `nil` if malformed or its checksum fails.
    static func decodeFrame(_ frame: UnsafeRawBufferPointer) -> (summary: SegmentSummary, segmentNumber: UInt32)? {
        guard frame.count >= 8, frame.loadLE(UInt32.self, at: 0) == skippableMagic else { return nil }
        let payloadLength = Int(frame.loadLE(UInt32.self, at: 4))
        guard frame.count == 8 + payloadLength, payloadLength >= 64 + trailerSize else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: frame[8...])
        let body = payloadLength - trailerSize
        guard Array(payload[0..<8]) == payloadMagic,
              Array(payload[(payloadLength - 4)...]) == trailerTag,
              payload.loadLE(UInt32.self, at: body + 4) == UInt32(payloadLength),
              CRC32C.checksum(UnsafeRawBufferPointer(rebasing: payload[0..<body])) == payload.loadLE(UInt32.self, at: body)
        else { return nil }
        var s = SegmentSummary()
        let segmentNumber = payload.loadLE(UInt32.self, at: 8)
        s.frameCount = payload.loadLE(UInt32.self, at: 12)
        s.recordCount = payload.loadLE(UInt64.self, at: 16)
        s.eventCount = payload.loadLE(UInt64.self, at: 24)
        s.rawBytes = payload.loadLE(UInt64.self, at: 32)
        s.minHLC = HybridTimestamp(rawValue: payload.loadLE(UInt64.self, at: 40))
        s.maxHLC = HybridTimestamp(rawValue: payload.loadLE(UInt64.self, at: 48))
        if s.recordCount == 0 { s.minHLC = HybridTimestamp(rawValue: .max) }
        let rangeCount = Int(payload.loadLE(UInt32.self, at: 56))
        let nameCount = Int(payload.loadLE(UInt32.self, at: 60))
        var offset = 64
        guard rangeCount <= (body - offset) / 24 else { return nil }
        for _ in 0..<rangeCount {
            s.deviceRanges.append(.init(
                device: DeviceID(rawValue: payload.loadLE(UInt64.self, at: offset)),
                firstSeq: payload.loadLE(UInt64.self, at: offset + 8),
                lastSeq: payload.loadLE(UInt64.self, at: offset + 16)))
            offset += 24
        }
        for _ in 0..<nameCount {
            guard offset + 17 <= body else { return nil }
            let length = Int(payload[offset + 16])
            guard offset + 17 + length <= body else { return nil }
            s.deviceNames.append(DeviceNameRecord(
                device: DeviceID(rawValue: payload.loadLE(UInt64.self, at: offset)),
                hlc: HybridTimestamp(rawValue: payload.loadLE(UInt64.self, at: offset + 8)),
                name: String(decoding: UnsafeRawBufferPointer(rebasing: payload[(offset + 17)..<(offset + 17 + length)]), as: UTF8.self)))
            offset += 17 + length
        }
        guard offset == body else { return nil }
        s.reindex()
        return (s, segmentNumber)
    }
}
