/// Writes raw record streams as format-2 blocks (Schemas/segment-format.md §2a), reusing its
/// scratch memory from call to call; one per writer.
final class ColumnarBlockEncoder {
    private var scratch: UnsafeMutablePointer<UInt8>
    private var capacity: Int

    init() {
        capacity = 0
        scratch = .allocate(capacity: 0)
    }

    deinit { scratch.deallocate() }

    /// Appends the blocks of `records` (valid records, as `RecordEncoder` writes them) to
    /// `output`: one block per 256 distinct devices.
    func encode(_ records: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) {
        guard records.count > 0 else { return }
        // Scratch columns sized for the worst case, so that writing needs no capacity checks:
        // at most one record per 20 bytes (the shortest record), 10 bytes per varint. Kept from
        // call to call: fresh pages for every frame cost more than the encoding.
        let most = records.count / 20 + 1
        let sizes = [most, most, most, 10 * most, 10 * most, 3 * most, 10 * most, 10 * most, most, records.count]
        let needed = sizes.reduce(0, +)
        if needed > capacity {
            scratch.deallocate()
            scratch = .allocate(capacity: needed)
            capacity = needed
        }
        var encoder = Encoder(scratch: scratch, sizes: sizes)
        var offset = 0
        while offset < records.count {
            let p = records.baseAddress! + offset
            let length = RecordStream.validatedLength(at: p)
            let device = p.loadUnaligned(fromByteOffset: RecordLayout.headerSize, as: UInt64.self)
            if !encoder.hasRoom(for: device) {
                encoder.finish(appendingTo: &output)
                encoder = Encoder(scratch: scratch, sizes: sizes)
            }
            encoder.add(p, length: length, device: device)
            offset += length
        }
        encoder.finish(appendingTo: &output)
    }

    /// One column being written into scratch memory that is large enough for any block.
    private struct ColumnWriter {
        let start: UnsafeMutablePointer<UInt8>
        var p: UnsafeMutablePointer<UInt8>

        init(_ start: UnsafeMutablePointer<UInt8>) {
            self.start = start
            p = start
        }

        var count: Int { p - start }

        @inline(__always)
        mutating func byte(_ value: UInt8) {
            p.pointee = value
            p += 1
        }

        @inline(__always)
        mutating func varint(_ value: UInt64) {
            var v = value
            while v >= 0x80 {
                p.pointee = UInt8(truncatingIfNeeded: v) | 0x80
                p += 1
                v >>= 7
            }
            p.pointee = UInt8(truncatingIfNeeded: v)
            p += 1
        }

        mutating func bytes(_ source: UnsafeRawPointer, count: Int) {
            UnsafeMutableRawPointer(p).copyMemory(from: source, byteCount: count)
            p += count
        }
    }

    /// One block being built.
    private struct Encoder {
        var recordCount = 0
        var decodedLength = 0
        var devices: [UInt64] = []
        var deviceCodes: [UInt64: UInt8] = [:]
        // Records come in runs of one device: most need no dictionary lookup.
        var lastDevice: UInt64 = 0
        var lastCode: UInt8 = 0
        var lastSeq: [UInt64] = []
        var lastTime: UInt64 = 0
        var lastStation: UInt64 = 0
        var lastDate: UInt64 = 0
        var kinds, flags, codes, seqs, times, counters, stations, dates, origins, tails: ColumnWriter

        init(scratch: UnsafeMutablePointer<UInt8>, sizes: [Int]) {
            var start = scratch
            let columns = sizes.map { size in
                defer { start += size }
                return ColumnWriter(start)
            }
            (kinds, flags, codes, seqs, times, counters) = (columns[0], columns[1], columns[2], columns[3], columns[4], columns[5])
            (stations, dates, origins, tails) = (columns[6], columns[7], columns[8], columns[9])
        }

        /// Columns 0 ... 9, in block order.
        var columns: [ColumnWriter] { [kinds, flags, codes, seqs, times, counters, stations, dates, origins, tails] }

        func hasRoom(for device: UInt64) -> Bool { deviceCodes[device] != nil || devices.count < ColumnarBlock.maximumDevices }

        mutating func add(_ p: UnsafeRawPointer, length: Int, device: UInt64) {
            let h = RecordLayout.headerSize
            let kind = p.load(as: UInt8.self), flag = p.load(fromByteOffset: 1, as: UInt8.self)
            let code: UInt8
            if device == lastDevice, recordCount > 0 {
                code = lastCode
            } else if let known = deviceCodes[device] {
                code = known
            } else {
                code = UInt8(devices.count)
                deviceCodes[device] = code
                devices.append(device)
                lastSeq.append(0)
            }
            lastDevice = device
            lastCode = code
            recordCount += 1
            decodedLength += length
            kinds.byte(kind)
            flags.byte(flag)
            codes.byte(code)
            if kind >= SealedRecordKind.event.rawValue, let sealed = SealedRecordKind(rawValue: kind) {
                addSealed(sealed, p, length: length, code: code)
                return
            }
            let hasSeq = kind != RecordKind.deviceName.rawValue
            if hasSeq {
                let seq = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: h + 8, as: UInt64.self))
                seqs.varint(Varint.zigzag(seq &- lastSeq[Int(code)]))
                lastSeq[Int(code)] = seq
            }
            let hlc = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: h + (hasSeq ? 16 : 8), as: UInt64.self))
            times.varint(Varint.zigzag((hlc >> 16) &- lastTime))
            counters.varint(hlc & 0xFFFF)
            lastTime = hlc >> 16
            switch RecordKind(rawValue: kind) {
            case .stationEdit:
                let station = UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: h + 24, as: UInt32.self)))
                stations.varint(Varint.zigzag(station &- lastStation))
                lastStation = station
                if flag & RecordLayout.flagHasCompDate != 0 {
                    let date = UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: h + 28, as: UInt32.self)))
                    dates.varint(Varint.zigzag(date &- lastDate))
                    lastDate = date
                }
                origins.byte(p.load(fromByteOffset: h + 32, as: UInt8.self))
                if flag & RecordLayout.flagHasMemo != 0 {
                    let memo = h + RecordLayout.stationEditFixedBody
                    tails.varint(UInt64(length - memo))
                    tails.bytes(p + memo, count: length - memo)
                }
            case .catalogVersion:
                tails.varint(UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: h + 24, as: UInt32.self))))
            case .deviceName:
                let name = h + RecordLayout.deviceNameFixedBody
                tails.varint(UInt64(length - name))
                tails.bytes(p + name, count: length - name)
            case .knowledgeMark:
                tails.varint(UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: h + 24, as: UInt32.self))))
                let entries = h + RecordLayout.knowledgeMarkFixedBody
                tails.bytes(p + entries, count: length - entries)
            case nil:
                preconditionFailure("ColumnarBlock.encode takes valid records only (kind \(kind))")
            }
        }

        /// A sealed record (§3.6): its seq in the seq column (an event's), the rest in the tail.
        mutating func addSealed(_ kind: SealedRecordKind, _ p: UnsafeRawPointer, length: Int, code: UInt8) {
            let h = RecordLayout.headerSize
            if kind.holdsEvents {
                // A run's seq column holds its last seq; its tail starts with last − first.
                let first = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: h + 8, as: UInt64.self))
                let seq = kind == .run ? UInt64(littleEndian: p.loadUnaligned(fromByteOffset: h + 16, as: UInt64.self)) : first
                seqs.varint(Varint.zigzag(seq &- lastSeq[Int(code)]))
                lastSeq[Int(code)] = seq
                if kind == .run { tails.varint(seq &- first) }
            }
            let epoch = h + SealedRecordLayout.epochOffset(kind)
            tails.varint(UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: epoch, as: UInt32.self))))
            tails.bytes(p + epoch + 4, count: SealedRecordLayout.nonceSize)
            let sealed = h + SealedRecordLayout.fixedBody(kind)
            tails.varint(UInt64(length - sealed))
            tails.bytes(p + sealed, count: length - sealed)
        }

        func finish(appendingTo output: inout [UInt8]) {
            var header = ByteWriter()
            header.append(ColumnarBlock.magic)
            header.put(UInt32(recordCount))
            header.put(UInt32(decodedLength))
            header.put(UInt16(devices.count))
            header.put(UInt16(0))
            for column in columns[3...] { header.put(UInt32(column.count)) }
            output.append(contentsOf: header.bytes)
            for device in devices { withUnsafeBytes(of: device) { output.append(contentsOf: $0) } }  // as read: little-endian
            for column in columns {
                output.append(contentsOf: UnsafeBufferPointer(start: column.start, count: column.count))
            }
        }
    }
}
