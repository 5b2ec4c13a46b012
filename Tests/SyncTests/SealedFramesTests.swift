import LedgerCore
import LedgerGenerator
import LedgerSync
import Testing

/// Sealed records (kinds 5 and 6, Schemas/segment-format.md §3.6) in the frames a log and the
/// sync API hold: written and read back byte for byte, the two kinds of stream kept apart, and
/// every malformed sealed record refused where it is.
@Suite("Sealed records in record frames")
struct SealedFramesTests {
    /// Records of every kind of several devices (more than a block's 256, so that frames hold
    /// several blocks), with seqs that go up and down from one record to the next.
    static func mixedRecords(seed: UInt64) -> [[UInt8]] {
        var random = SeededRandom(seed: seed)
        var records: [[UInt8]] = []
        for index in 0..<600 {
            let device = DeviceID(rawValue: 1 + random.next() % 300)
            let seq = 1 + random.next() % 1_000_000
            let hlc = HybridTimestamp(milliseconds: 1_700_000_000_000 + Int64(index), counter: UInt16(index % 7))
            let record: LedgerRecord
            switch index % 5 {
            case 0: record = .deviceName(DeviceNameRecord(device: device, hlc: hlc, name: "端末 \(index)"))
            case 1: record = .catalogVersion(CatalogVersionEvent(id: EventID(device: device, seq: seq), hlc: hlc, version: 176))
            case 2: record = .knowledgeMark(KnowledgeMark(id: EventID(device: device, seq: seq), hlc: hlc, knowledge: [device: seq]))
            default:
                record = .stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: hlc, station: UInt32(1 + index),
                                                  compDate: .day(2013, 9, 1), memo: index % 2 == 0 ? nil : String(repeating: "駅", count: index % 90),
                                                  origin: .user))
            }
            records.append(RecordEncoder.bytes(of: record))
        }
        return records
    }

    static func frames(of records: [[UInt8]]) -> [UInt8] {
        var frames: [UInt8] = []
        let stream = records.flatMap { $0 }
        stream.withUnsafeBytes { _ = RecordFrames.Writer().encode($0, appendingTo: &frames) }
        return frames
    }

    static func sealedRecords(in frames: [UInt8]) throws -> [SealedRecord] {
        var found: [SealedRecord] = []
        try frames.withUnsafeBytes { raw in
            try RecordFrames.Reader().forEachSealedRecord(in: raw) { view in
                let record = SealedRecord(view)
                #expect(Array(view.bytes) == record.recordBytes, "the stored form is exactly the record's bytes")
                found.append(record)
            }
        }
        return found
    }

    /// The reason `read` refuses `frames` with, and the index of the record it names.
    static func refusal(_ frames: [UInt8], sealed: Bool) -> (reason: String, record: Int?)? {
        do {
            try frames.withUnsafeBytes { raw in
                let reader = RecordFrames.Reader()
                if sealed { try reader.forEachSealedRecord(in: raw) { _ in } } else { try reader.forEachRecord(in: raw) { _ in } }
            }
            return nil
        } catch let fault as RecordFrames.Fault {
            return (fault.reason, fault.record)
        } catch {
            return ("\(error)", nil)
        }
    }

    @Test("sealed events and names of 300 devices are written as frames and read back as they were, and open to their records")
    func roundTrip() throws {
        let key = DataKey.random(epoch: 4)
        let records = Self.mixedRecords(seed: 11)
        let sealed = try records.map { try RecordSealer.seal($0, with: key) }
        #expect(Set(sealed.map(\.kind)) == [.event, .name])
        let frames = Self.frames(of: sealed.map(\.recordBytes))
        let read = try Self.sealedRecords(in: frames)
        #expect(read.count == sealed.count)
        #expect(zip(read, sealed).filter { $0 != $1 }.count == 0, "every record read back as it was written")
        let opened = try read.map { try RecordSealer.open($0, with: key) }
        #expect(zip(opened, records).filter { $0 != $1 }.count == 0, "every record opens to the one sealed")
        // The columns keep what the clear fields share: the frames are smaller than the records.
        #expect(frames.count < sealed.map(\.recordBytes.count).reduce(0, +))
    }

    @Test("a plaintext reader refuses a sealed record, and a sealed reader a plaintext one, naming the record")
    func streamsStayApart() throws {
        let key = DataKey.random(epoch: 1)
        let records = Self.mixedRecords(seed: 3)
        var mixed = try records.prefix(4).map { try RecordSealer.seal($0, with: key).recordBytes }
        mixed.insert(records[5], at: 2)
        let refused = Self.refusal(Self.frames(of: mixed), sealed: true)
        #expect(refused?.reason == "a plaintext record (kind \(records[5][0])) where only sealed records may be")
        #expect(refused?.record == 2)
        let sealedInPlain = [records[0], records[1], try RecordSealer.seal(records[3], with: key).recordBytes]
        let plain = Self.refusal(Self.frames(of: sealedInPlain), sealed: false)
        #expect(plain?.reason == "a sealed record (kind 5) where only plaintext records may be")
        #expect(plain?.record == 2)
    }

    @Test("every malformed sealed record is refused by the sealed stream, with what is wrong")
    func malformedRecords() throws {
        let key = DataKey.random(epoch: 2)
        let records = Self.mixedRecords(seed: 5)
        let event = try RecordSealer.seal(records[3], with: key).recordBytes
        let name = try RecordSealer.seal(records[0], with: key).recordBytes
        #expect(name[0] == 6 && event[0] == 5)
        func patched(_ bytes: [UInt8], _ change: (inout [UInt8]) -> Void) -> [UInt8] {
            var copy = bytes
            change(&copy)
            return copy
        }
        /// The record with its body shortened or lengthened by `delta` bytes (the header kept true).
        func resized(_ bytes: [UInt8], by delta: Int) -> [UInt8] {
            var copy = delta < 0 ? Array(bytes.dropLast(-delta)) : bytes + [UInt8](repeating: 0, count: delta)
            let body = UInt16(copy.count - 4)
            copy[2] = UInt8(body & 0xff)
            copy[3] = UInt8(body >> 8)
            return copy
        }
        // Kind 7, flags 0, a body of 88 bytes: device 0x51, first 5, last 4, epoch 1, nonce, 32 + 16 bytes.
        var backwardsRun: [UInt8] = [7, 0, 88, 0]
        for field in [UInt64(0x51), 5, 4] { withUnsafeBytes(of: field.littleEndian) { backwardsRun += $0 } }
        backwardsRun += [1, 0, 0, 0] + [UInt8](repeating: 0xab, count: 12 + 48)
        // The same with first 5, last 7: three events, where a block of 32 bytes holds none.
        var swollenRun = backwardsRun
        swollenRun[20] = 7
        let cases: [(String, [UInt8], String)] = [
            ("flags", patched(event) { $0[1] = 1 }, "a sealed record has bad flags or a bad length"),
            ("a ciphertext not a multiple of 32", resized(event, by: -1), "a sealed record has bad flags or a bad length"),
            ("no ciphertext but the tag", resized(event, by: -(event.count - 4 - 32 - 16)), "a sealed record has bad flags or a bad length"),
            ("a zero device", patched(event) { for i in 4..<12 { $0[i] = 0 } }, "a sealed record has a zero device, seq or epoch"),
            ("a zero seq", patched(event) { for i in 12..<20 { $0[i] = 0 } }, "a sealed record has a zero device, seq or epoch"),
            ("a zero epoch", patched(name) { for i in 12..<16 { $0[i] = 0 } }, "a sealed record has a zero device, seq or epoch"),
            ("an unknown kind", patched(event) { $0[0] = 8 }, "unknown record kind 8 where only sealed records may be"),
            ("a run that ends before it starts", backwardsRun, "a sealed run ends (seq 4) before it starts (seq 5)"),
            ("a run that claims more events than its bytes could hold", swollenRun, "a sealed run claims 3 events, more than its 32 bytes could hold"),
            ("a record past the stream", Array(event.dropLast()), "a record runs past its frame"),
            ("a cut header", Array(event.prefix(3)), "a record header is cut off"),
        ]
        for (label, bytes, reason) in cases {
            var refusal: String?
            do {
                try (name + bytes).withUnsafeBytes { try SealedRecordStream.forEach(in: $0) { _ in } }
            } catch let fault as RecordStream.Fault {
                refusal = fault.reason
                #expect(fault.offset == name.count, "\(label): the second record")
            }
            #expect(refusal?.hasPrefix(reason) == true, "\(label): \(refusal ?? "accepted")")
        }
    }

    @Test("a knowledge mark too long for a sealed record's u16 body is refused by the sealer, one that fits is sealed")
    func longestSealable() throws {
        let key = DataKey.random(epoch: 1)
        func mark(entries: Int) -> [UInt8] {
            let knowledge = Dictionary(uniqueKeysWithValues: (1...entries).map { (DeviceID(rawValue: UInt64($0)), UInt64(1)) })
            return RecordEncoder.bytes(of: .knowledgeMark(KnowledgeMark(id: EventID(device: DeviceID(rawValue: 9), seq: 1),
                                                                        hlc: HybridTimestamp(milliseconds: 1_700_000_000_000, counter: 0),
                                                                        knowledge: knowledge)))
        }
        let fits = try RecordSealer.seal(mark(entries: 4_090), with: key)
        #expect(fits.recordBytes.count - 4 <= Int(UInt16.max))
        #expect(try Self.sealedRecords(in: Self.frames(of: [fits.recordBytes])) == [fits])
        #expect(throws: SealingError.record("the record is too long to seal (65488 bytes)")) { try RecordSealer.seal(mark(entries: 4_091), with: key) }
    }
}
