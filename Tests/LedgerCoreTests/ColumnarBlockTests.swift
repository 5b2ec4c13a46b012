import LedgerTestSupport
import Testing
@testable import LedgerCore

/// The format-2 block codec (Schemas/segment-format.md §2a): seeded random record streams of
/// every kind and extreme field values decode to exactly the bytes they encode, and damaged
/// blocks are refused with a reason rather than trapping or decoding to something else.
@Suite struct ColumnarBlockTests {
    static func randomRecord(_ random: inout SeededGenerator, devices: [DeviceID]) -> LedgerRecord {
        let device = devices.randomElement(using: &random)!
        let seq = Bool.random(using: &random) ? UInt64.random(in: 1...50, using: &random) : UInt64.random(in: 1...UInt64.max, using: &random)
        let hlc = HybridTimestamp(rawValue: Bool.random(using: &random)
            ? UInt64.random(in: 1...UInt64.max, using: &random)
            : (UInt64(1_700_000_000_000 + Int.random(in: -5_000...5_000, using: &random)) << 16) | UInt64.random(in: 0...3, using: &random))
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            return .catalogVersion(CatalogVersionEvent(id: EventID(device: device, seq: seq), hlc: hlc,
                                                       version: UInt32.random(in: 0...UInt32.max, using: &random)))
        case 1:
            let name = String(repeating: "端", count: Int.random(in: 1...85, using: &random))
            return .deviceName(DeviceNameRecord(device: device, hlc: hlc, name: name))
        case 2:
            var knowledge: [DeviceID: UInt64] = [:]
            for other in devices.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
                knowledge[other] = UInt64.random(in: 1...UInt64.max, using: &random)
            }
            return .knowledgeMark(KnowledgeMark(id: EventID(device: device, seq: seq), hlc: hlc, knowledge: knowledge))
        default:
            let dates: [CompletionDate?] = [nil, .notCompleted, .unknown, .year(1900), .month(2013, 9), .day(2026, 11, 25), .day(1999, 12, 31)]
            let memos: [String?] = [nil, "", "東京駅\n", String(repeating: "x", count: StationEdit.maximumMemoBytes)]
            var date = dates.randomElement(using: &random)!
            let memo = memos.randomElement(using: &random)!
            if date == nil && memo == nil { date = .unknown }
            let station = Bool.random(using: &random) ? UInt32.random(in: 100_000...1_000_000, using: &random) : UInt32.random(in: 1...UInt32.max, using: &random)
            return .stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: hlc, station: station, compDate: date,
                                            memo: memo, origin: [.user, .import, .catalog].randomElement(using: &random)!))
        }
    }

    static func stream(_ records: [LedgerRecord]) -> [UInt8] {
        var encoder = RecordEncoder()
        for record in records { encoder.append(record) }
        return encoder.bytes
    }

    static func encoded(_ stream: [UInt8]) -> [UInt8] {
        var blocks: [UInt8] = []
        stream.withUnsafeBytes { ColumnarBlock.encode($0, appendingTo: &blocks) }
        return blocks
    }

    static func decode(_ blocks: [UInt8]) throws -> [UInt8] {
        let decoder = ColumnarBlockDecoder()
        return try withExtendedLifetime(decoder) { try blocks.withUnsafeBytes { Array(try decoder.decode($0)) } }
    }

    @Test(arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func randomStreamsRoundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let devices = (0..<Int.random(in: 1...6, using: &random)).map { _ in DeviceID(rawValue: UInt64.random(in: 1...UInt64.max, using: &random)) }
        let records = (0..<Int.random(in: 1...400, using: &random)).map { _ in Self.randomRecord(&random, devices: devices) }
        let raw = Self.stream(records)
        let blocks = Self.encoded(raw)
        #expect(try Self.decode(blocks) == raw, "seed \(seed)")
        var decoded: [LedgerRecord] = []
        try Self.decode(blocks).withUnsafeBytes { bytes in try RecordStream.forEach(in: bytes) { decoded.append($0.record) } }
        #expect(decoded == records, "seed \(seed)")
    }

    @Test func moreThan256DevicesStartNewBlocks() throws {
        let records: [LedgerRecord] = (1...600).map { i in
            .stationEdit(StationEdit(id: EventID(device: DeviceID(rawValue: UInt64(i)), seq: 1), hlc: HybridTimestamp(rawValue: UInt64(i) << 16),
                                     station: UInt32(i), compDate: .unknown, memo: nil, origin: .user))
        }
        let raw = Self.stream(records)
        let blocks = Self.encoded(raw)
        let magics = (0...(blocks.count - 4)).filter { Array(blocks[$0..<$0 + 4]) == ColumnarBlock.magic }
        #expect(magics.count == 3, "256 + 256 + 88 devices")
        #expect(try Self.decode(blocks) == raw)
    }

    @Test func regularEventsTakeAFewBytesBeforeLZ4() {
        // A device's consecutive edits a few minutes apart: the columns shrink to deltas.
        let device = DeviceID(rawValue: 0xA1)
        let records: [LedgerRecord] = (1...1000).map { (i: Int) -> LedgerRecord in
            let hlc = HybridTimestamp(milliseconds: Int64(1_700_000_000_000) + Int64(i) * 180_000, counter: 0)
            let station = UInt32(120_000 + i % 300)
            let date = CompletionDate.day(2020, 1, 1 + i % 28)
            return .stationEdit(StationEdit(id: EventID(device: device, seq: UInt64(i)), hlc: hlc, station: station,
                                            compDate: date, memo: nil, origin: .user))
        }
        let raw = Self.stream(records)
        let blocks = Self.encoded(raw)
        #expect(raw.count == 38_000)
        #expect(blocks.count < 11_500, "\(blocks.count) bytes: kind, flags, device, seq, hlc time (3), counter, station, date, origin")
    }

    static let sample: [UInt8] = {
        let device = DeviceID(rawValue: 0xA1)
        return encoded(stream([
            .deviceName(DeviceNameRecord(device: device, hlc: HybridTimestamp(rawValue: 5 << 16), name: "phone")),
            .stationEdit(StationEdit(id: EventID(device: device, seq: 1), hlc: HybridTimestamp(rawValue: 6 << 16), station: 42,
                                     compDate: .year(2001), memo: "m", origin: .user)),
        ]))
    }()

    static func patched(_ offset: Int, _ bytes: [UInt8]) -> [UInt8] {
        var copy = sample
        copy.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        return copy
    }

    struct Damage: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var reason: String
        var testDescription: String { name }
    }

    static let damages: [Damage] = [
        Damage(name: "bad magic", bytes: patched(0, [0x4F, 0x52, 0x42, 0x31]), reason: "a block does not start with ORB2"),
        Damage(name: "no records", bytes: patched(4, [0, 0, 0, 0]), reason: "a block declares 0 records of 1 devices"),
        Damage(name: "reserved field", bytes: patched(14, [1]), reason: "a block's reserved field is not 0"),
        Damage(name: "declared length too short", bytes: patched(8, [10]), reason: "a block's records are longer than it declares"),
        Damage(name: "declared length too long", bytes: patched(8, [200]), reason: "a block's records are shorter than it declares"),
        Damage(name: "device code outside the table", bytes: patched(ColumnarBlock.headerSize + 8 + 4, [1]),
               reason: "a block's device code 1 is not in its table of 1"),
        Damage(name: "unknown kind", bytes: patched(ColumnarBlock.headerSize + 8, [9]), reason: "a block holds unknown record kind 9"),
        Damage(name: "a column longer than its records", bytes: {
            var copy = patched(16, [2])  // the seq column claims 2 bytes
            copy.insert(0, at: ColumnarBlock.headerSize + 8 + 6 + 1)
            return copy
        }(), reason: "the seq column has bytes no record uses"),
        Damage(name: "cut short", bytes: Array(sample.dropLast(2)), reason: "a block runs past its frame"),
    ]

    @Test(arguments: damages)
    func damagedBlocksAreRefusedWithAReason(_ damage: Damage) {
        #expect(throws: Never.self) { try Self.decode(Self.sample) }
        do {
            _ = try Self.decode(damage.bytes)
            Issue.record("\(damage.name) decoded")
        } catch let error as ColumnarBlockDecoder.Fault {
            #expect(error.reason == damage.reason)
            #expect(error.offset == 0)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func everyTruncationAndByteFlipIsRefusedOrDecodesWithoutTrapping() {
        let raw = Self.stream([.stationEdit(StationEdit(id: EventID(device: DeviceID(rawValue: 7), seq: 3), hlc: HybridTimestamp(rawValue: 9 << 16),
                                                         station: 5, compDate: .unknown, memo: "abc", origin: .import))])
        let blocks = Self.encoded(raw)
        for length in 1..<blocks.count {
            #expect(throws: ColumnarBlockDecoder.Fault.self) { try Self.decode(Array(blocks.prefix(length))) }
        }
        for offset in blocks.indices {
            var copy = blocks
            copy[offset] ^= 0x5A
            // A flip may still decode (a different station, say): the frame checksum catches
            // those on disk. What must not happen is a trap or a decode past the buffer.
            if let decoded = try? Self.decode(copy) { #expect(decoded.count <= LZ4Frame.maximumContentSize) }
        }
    }
}
