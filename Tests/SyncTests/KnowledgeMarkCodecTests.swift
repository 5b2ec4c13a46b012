import LedgerCore
import LedgerSync
import Testing
import LedgerTestSupport

@Suite("Knowledge mark record (kind 4)")
struct KnowledgeMarkCodecTests {
    static let mark = KnowledgeMark(
        id: EventID(device: DeviceID(rawValue: 0xA1), seq: 9), hlc: HybridTimestamp(milliseconds: 1_700_000_000_000, counter: 3),
        knowledge: [DeviceID(rawValue: 0xB2): 4, DeviceID(rawValue: 0x03): 17, DeviceID(rawValue: 0xC4): 0])

    @Test("encodes little-endian fixed fields, sorted entries, and round-trips")
    func roundTrip() throws {
        var encoder = RecordEncoder()
        encoder.append(.knowledgeMark(Self.mark))
        let bytes = encoder.bytes
        #expect(bytes.count == RecordEncoder.encodedSize(of: .knowledgeMark(Self.mark)))
        #expect(bytes.count == 4 + 28 + 2 * 16)  // the zero entry is dropped
        #expect(Array(bytes[0..<4]) == [4, 0, 60, 0])
        #expect(Array(bytes[4..<12]) == [0xA1, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(bytes[28..<32]) == [2, 0, 0, 0])
        #expect(bytes[32] == 0x03 && bytes[48] == 0xB2)  // ascending devices
        var decoded: [LedgerRecord] = []
        try bytes.withUnsafeBytes { raw in try RecordStream.forEach(in: raw) { decoded.append($0.record) } }
        var expected = Self.mark
        expected.knowledge[DeviceID(rawValue: 0xC4)] = nil
        #expect(decoded == [.knowledgeMark(expected)])
        #expect(LedgerRecord.knowledgeMark(expected).eventID == expected.id)
    }

    enum Damage: String, CaseIterable, Sendable {
        case entriesOutOfOrder, lengthDisagreesWithCount, nonZeroFlags, zeroSeq

        func apply(_ b: inout [UInt8]) {
            switch self {
            case .entriesOutOfOrder: b.swapAt(32, 48)
            case .lengthDisagreesWithCount: b[28] = 3
            case .nonZeroFlags: b[1] = 1
            case .zeroSeq: for i in 12..<20 { b[i] = 0 }
            }
        }
    }

    @Test("malformed marks are refused", arguments: Damage.allCases)
    func malformed(_ damage: Damage) throws {
        var encoder = RecordEncoder()
        encoder.append(.knowledgeMark(Self.mark))
        var bytes = encoder.bytes
        damage.apply(&bytes)
        #expect(throws: RecordStream.Fault.self, "\(damage)") {
            try bytes.withUnsafeBytes { raw in try RecordStream.forEach(in: raw) { _ in } }
        }
    }

    @Test("a ledger stores, reopens and verifies marks")
    func persisted() throws {
        let dir = try TemporaryDirectory("mark")
        defer { dir.remove() }
        let ledger = try Ledger.create(directory: dir.sub("a"), deviceName: "a", clock: DeviceClock())
        let device = ledger.localDevice
        let mark = KnowledgeMark(id: EventID(device: device, seq: 1), hlc: ledger.nextLocalHLC(),
                                 knowledge: [DeviceID(rawValue: 5): 2])
        try ledger.append([.knowledgeMark(mark)])
        ledger.close()
        let reopened = try Ledger.open(directory: dir.sub("a"), clock: DeviceClock())
        defer { reopened.close() }
        #expect(reopened.versionVector[device] == 1)
        #expect(try reopened.allRecords().contains(.knowledgeMark(mark)))
    }
}
