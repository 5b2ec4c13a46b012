/// Turns the blocks of a format-2 frame back into the raw record stream they encode
/// (Schemas/segment-format.md §2a), into a reusable buffer; one per reader.
///
/// Every column read is bounds-checked and every column must be used up exactly, so damaged
/// blocks fail here; what the records then say is checked by `RecordStream`, as for format 1.
final class ColumnarBlockDecoder {
    /// Why a block is malformed; `offset` is the block's offset in the frame content.
    struct Fault: Error, Sendable {
        var offset: Int
        var reason: String
    }

    private let buffer: UnsafeMutableRawBufferPointer
    /// Per device code, the previous seq (reset for every block).
    private let lastSeqs: UnsafeMutablePointer<UInt64>

    init() {
        buffer = .allocate(byteCount: LZ4Frame.maximumContentSize, alignment: 16)
        lastSeqs = .allocate(capacity: ColumnarBlock.maximumDevices)
    }

    deinit {
        buffer.deallocate()
        lastSeqs.deallocate()
    }

    /// Decodes every block of one frame's content. The records are valid until the next call.
    func decode(_ content: UnsafeRawBufferPointer) throws(Fault) -> UnsafeRawBufferPointer {
        var at = 0
        var written = 0
        while at < content.count {
            let block = UnsafeRawBufferPointer(rebasing: content[at...])
            do {
                let (consumed, decoded) = try decodeBlock(block, into: buffer.baseAddress! + written, capacity: buffer.count - written)
                at += consumed
                written += decoded
            } catch let reason {
                throw Fault(offset: at, reason: reason.text)
            }
        }
        return UnsafeRawBufferPointer(start: buffer.baseAddress, count: written)
    }

    private struct Reason: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// One column of the block: a cursor that refuses to run past the column's end.
    private struct Column {
        var p: UnsafePointer<UInt8>
        let end: UnsafePointer<UInt8>
        let name: StaticString

        @inline(__always)
        mutating func byte() throws(Reason) -> UInt8 {
            guard p < end else { throw Reason("the \(name) column is cut short") }
            defer { p += 1 }
            return p.pointee
        }

        /// For the kind, flags and device columns, which hold exactly one byte per record and are
        /// read once per record.
        @inline(__always)
        mutating func byteOfRecord() -> UInt8 {
            defer { p += 1 }
            return p.pointee
        }

        /// Most varints are read where 10 bytes remain in the column, unrolled with no bounds
        /// check per byte; the few at a column's end take the checked loop.
        @inline(__always)
        mutating func varint() throws(Reason) -> UInt64 {
            guard end - p >= Varint.maximumLength else { return try varintNearEnd() }
            var b = UInt64(p[0])
            var value = b & 0x7F
            if b < 0x80 { p += 1; return value }
            b = UInt64(p[1]); value |= (b & 0x7F) << 7
            if b < 0x80 { p += 2; return value }
            b = UInt64(p[2]); value |= (b & 0x7F) << 14
            if b < 0x80 { p += 3; return value }
            b = UInt64(p[3]); value |= (b & 0x7F) << 21
            if b < 0x80 { p += 4; return value }
            return try varintNearEnd()
        }

        mutating func varintNearEnd() throws(Reason) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard p < end else { throw Reason("a varint in the \(name) column is cut short") }
                let b = p.pointee
                p += 1
                guard shift < 63 || b <= 1 else { throw Reason("a varint in the \(name) column overflows 64 bits") }
                value |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
        }

        mutating func bytes(_ count: Int) throws(Reason) -> UnsafePointer<UInt8> {
            guard end - p >= count else { throw Reason("the \(name) column is cut short") }
            defer { p += count }
            return p
        }

        var isUsedUp: Bool { p == end }
    }

    /// Decodes the block at the start of `block`; returns its length and its records' length.
    private func decodeBlock(
        _ block: UnsafeRawBufferPointer, into out: UnsafeMutableRawPointer, capacity: Int
    ) throws(Reason) -> (consumed: Int, decoded: Int) {
        let headerSize = ColumnarBlock.headerSize
        guard block.count >= headerSize else { throw Reason("a block header is cut off") }
        guard block.prefix(4).elementsEqual(ColumnarBlock.magic) else { throw Reason("a block does not start with ORB2") }
        let count = Int(block.loadLE(UInt32.self, at: 4))
        let decodedLength = Int(block.loadLE(UInt32.self, at: 8))
        let deviceCount = Int(block.loadLE(UInt16.self, at: 12))
        guard block.loadLE(UInt16.self, at: 14) == 0 else { throw Reason("a block's reserved field is not 0") }
        guard count > 0, (1...ColumnarBlock.maximumDevices).contains(deviceCount), deviceCount <= count else {
            throw Reason("a block declares \(count) records of \(deviceCount) devices")
        }
        guard decodedLength <= capacity else { throw Reason("a frame's blocks decode to more than 4 MiB") }
        var total = headerSize + 8 * deviceCount + 3 * count
        var lengths: [Int] = []
        for i in 0..<ColumnarBlock.variableColumnCount {
            let length = Int(block.loadLE(UInt32.self, at: 16 + 4 * i))
            lengths.append(length)
            total += length
        }
        guard total <= block.count else { throw Reason("a block runs past its frame") }

        let base = block.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var start = headerSize + 8 * deviceCount
        func column(_ length: Int, _ name: StaticString) -> Column {
            defer { start += length }
            return Column(p: base + start, end: base + start + length, name: name)
        }
        lastSeqs.update(repeating: 0, count: deviceCount)
        var r = BlockRecords(
            kinds: column(count, "kind"), flags: column(count, "flags"), codes: column(count, "device"),
            seqs: column(lengths[0], "seq"), times: column(lengths[1], "hlc time"), counters: column(lengths[2], "hlc counter"),
            stations: column(lengths[3], "station"), dates: column(lengths[4], "date"),
            origins: column(lengths[5], "origin"), tails: column(lengths[6], "tail"),
            devices: UnsafeRawPointer(base + headerSize), deviceCount: deviceCount, lastSeqs: lastSeqs,
            out: out, decodedLength: decodedLength)
        for _ in 0..<count { try r.decodeRecord() }
        let o = r.written
        guard o == decodedLength else { throw Reason("a block's records are shorter than it declares") }
        for c in [r.seqs, r.times, r.counters, r.stations, r.dates, r.origins, r.tails] where !c.isUsedUp {
            throw Reason("the \(c.name) column has bytes no record uses")
        }
        return (total, o)
    }

    /// The columns of one block and the running values their deltas apply to, writing records
    /// one by one. (A struct with mutating methods, not closures over local variables: those
    /// made every field access a dynamic exclusivity check, a third of the decoding time.)
    private struct BlockRecords {
        var kinds: Column, flags: Column, codes: Column
        var seqs: Column, times: Column, counters: Column
        var stations: Column, dates: Column, origins: Column, tails: Column
        let devices: UnsafeRawPointer
        let deviceCount: Int
        let lastSeqs: UnsafeMutablePointer<UInt64>
        let out: UnsafeMutableRawPointer
        let decodedLength: Int
        var written = 0
        var lastTime: UInt64 = 0, lastStation: UInt64 = 0, lastDate: UInt64 = 0

        @inline(__always)
        mutating func seq(_ code: Int) throws(Reason) -> UInt64 {
            let seq = lastSeqs[code] &+ Varint.unzigzag(try seqs.varint())
            lastSeqs[code] = seq
            return seq
        }

        @inline(__always)
        mutating func hlc() throws(Reason) -> UInt64 {
            let time = lastTime &+ Varint.unzigzag(try times.varint())
            let counter = try counters.varint()
            guard time < 1 << 48, counter <= 0xFFFF else { throw Reason("a block holds an hlc out of range") }
            lastTime = time
            return time << 16 | counter
        }

        @inline(__always)
        func u32(_ value: UInt64) throws(Reason) -> UInt32 {
            guard value <= UInt64(UInt32.max) else { throw Reason("a block holds a 32-bit field out of range") }
            return UInt32(truncatingIfNeeded: value)
        }

        /// Writes a record header and returns where its body goes.
        @inline(__always)
        mutating func begin(_ kind: UInt8, _ flag: UInt8, body: Int) throws(Reason) -> UnsafeMutableRawPointer {
            guard body <= Int(UInt16.max) else { throw Reason("a block holds a record longer than 65,535 bytes") }
            guard written + RecordLayout.headerSize + body <= decodedLength else {
                throw Reason("a block's records are longer than it declares")
            }
            let r = out + written
            r.storeBytes(of: kind, as: UInt8.self)
            r.storeBytes(of: flag, toByteOffset: 1, as: UInt8.self)
            r.storeBytes(of: UInt16(body).littleEndian, toByteOffset: 2, as: UInt16.self)
            written += RecordLayout.headerSize + body
            return r + RecordLayout.headerSize
        }

        mutating func decodeRecord() throws(Reason) {
            let kind = kinds.byteOfRecord(), flag = flags.byteOfRecord(), code = Int(codes.byteOfRecord())
            guard code < deviceCount else { throw Reason("a block's device code \(code) is not in its table of \(deviceCount)") }
            let device = devices.loadUnaligned(fromByteOffset: 8 * code, as: UInt64.self)  // stays little-endian
            switch RecordKind(rawValue: kind) {
            case .stationEdit:
                let seq = try seq(code)
                let stamp = try hlc()
                lastStation = UInt64(try u32(lastStation &+ Varint.unzigzag(try stations.varint())))
                var date: UInt32 = 0
                if flag & RecordLayout.flagHasCompDate != 0 {
                    lastDate = UInt64(try u32(lastDate &+ Varint.unzigzag(try dates.varint())))
                    date = UInt32(truncatingIfNeeded: lastDate)
                }
                let origin = try origins.byte()
                var memoLength = 0
                if flag & RecordLayout.flagHasMemo != 0 { memoLength = Int(clamping: try tails.varint()) }
                guard memoLength <= Int(UInt16.max) else { throw Reason("a block holds a record longer than 65,535 bytes") }
                let b = try begin(kind, flag, body: RecordLayout.stationEditFixedBody + memoLength)
                b.storeBytes(of: device, as: UInt64.self)
                b.storeBytes(of: seq.littleEndian, toByteOffset: 8, as: UInt64.self)
                b.storeBytes(of: stamp.littleEndian, toByteOffset: 16, as: UInt64.self)
                b.storeBytes(of: UInt32(truncatingIfNeeded: lastStation).littleEndian, toByteOffset: 24, as: UInt32.self)
                b.storeBytes(of: date.littleEndian, toByteOffset: 28, as: UInt32.self)
                b.storeBytes(of: UInt16(origin).littleEndian, toByteOffset: 32, as: UInt16.self)  // origin, reserved 0
                if memoLength > 0 {
                    (b + RecordLayout.stationEditFixedBody).copyMemory(from: try tails.bytes(memoLength), byteCount: memoLength)
                }
            case .catalogVersion:
                let seq = try seq(code)
                let stamp = try hlc()
                let version = try u32(try tails.varint())
                let b = try begin(kind, flag, body: RecordLayout.catalogVersionBody)
                b.storeBytes(of: device, as: UInt64.self)
                b.storeBytes(of: seq.littleEndian, toByteOffset: 8, as: UInt64.self)
                b.storeBytes(of: stamp.littleEndian, toByteOffset: 16, as: UInt64.self)
                b.storeBytes(of: version.littleEndian, toByteOffset: 24, as: UInt32.self)
                b.storeBytes(of: UInt16(0), toByteOffset: 28, as: UInt16.self)
            case .deviceName:
                let stamp = try hlc()
                let nameLength = Int(clamping: try tails.varint())
                guard nameLength <= Int(UInt16.max) else { throw Reason("a block holds a record longer than 65,535 bytes") }
                let b = try begin(kind, flag, body: RecordLayout.deviceNameFixedBody + nameLength)
                b.storeBytes(of: device, as: UInt64.self)
                b.storeBytes(of: stamp.littleEndian, toByteOffset: 8, as: UInt64.self)
                (b + RecordLayout.deviceNameFixedBody).copyMemory(from: try tails.bytes(nameLength), byteCount: nameLength)
            case .knowledgeMark:
                let seq = try seq(code)
                let stamp = try hlc()
                let entries = Int(clamping: try tails.varint())
                guard entries <= Int(UInt16.max) / RecordLayout.knowledgeMarkEntrySize else {
                    throw Reason("a block holds a record longer than 65,535 bytes")
                }
                let entryBytes = entries * RecordLayout.knowledgeMarkEntrySize
                let b = try begin(kind, flag, body: RecordLayout.knowledgeMarkFixedBody + entryBytes)
                b.storeBytes(of: device, as: UInt64.self)
                b.storeBytes(of: seq.littleEndian, toByteOffset: 8, as: UInt64.self)
                b.storeBytes(of: stamp.littleEndian, toByteOffset: 16, as: UInt64.self)
                b.storeBytes(of: UInt32(entries).littleEndian, toByteOffset: 24, as: UInt32.self)
                (b + RecordLayout.knowledgeMarkFixedBody).copyMemory(from: try tails.bytes(entryBytes), byteCount: entryBytes)
            case nil:
                guard let sealed = SealedRecordKind(rawValue: kind) else { throw Reason("a block holds unknown record kind \(kind)") }
                try decodeSealed(sealed, flag, code: code, device: device)
            }
        }

        /// A sealed record (§3.6): an event's seq from the seq column, no hlc, the rest from the tail.
        mutating func decodeSealed(_ kind: SealedRecordKind, _ flag: UInt8, code: Int, device: UInt64) throws(Reason) {
            let seq = kind.holdsEvents ? try seq(code) : 0
            // A run's tail starts with last − first (its seq column holds its last); a run that
            // ends before it starts is the sealed reader's to refuse, as in a version-1 frame.
            let span = kind == .run ? try tails.varint() : 0
            let epoch = try u32(try tails.varint())
            let nonce = try tails.bytes(SealedRecordLayout.nonceSize)
            let sealedLength = Int(clamping: try tails.varint())
            let fixed = SealedRecordLayout.fixedBody(kind)
            guard sealedLength <= Int(UInt16.max) - fixed else { throw Reason("a block holds a record longer than 65,535 bytes") }
            let sealed = try tails.bytes(sealedLength)
            let b = try begin(kind.rawValue, flag, body: fixed + sealedLength)
            b.storeBytes(of: device, as: UInt64.self)
            if kind == .event { b.storeBytes(of: seq.littleEndian, toByteOffset: 8, as: UInt64.self) }
            if kind == .run {
                b.storeBytes(of: (seq &- span).littleEndian, toByteOffset: 8, as: UInt64.self)
                b.storeBytes(of: seq.littleEndian, toByteOffset: 16, as: UInt64.self)
            }
            let epochAt = SealedRecordLayout.epochOffset(kind)
            b.storeBytes(of: epoch.littleEndian, toByteOffset: epochAt, as: UInt32.self)
            (b + epochAt + 4).copyMemory(from: nonce, byteCount: SealedRecordLayout.nonceSize)
            (b + fixed).copyMemory(from: sealed, byteCount: sealedLength)
        }
    }
}
