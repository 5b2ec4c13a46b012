import LedgerCore
import LedgerSync
import LedgerTestSupport
import Testing

/// `EncodedRecords`' bulk paths (pages and runs copied in one go, frames appended whole) hand out
/// exactly the records a record-by-record walk would.
@Suite("Encoded records: pages and runs")
struct EncodedRecordsTests {
    static func records(_ rng: inout SeededGenerator, count: Int) -> [LedgerRecord] {
        (0..<count).map { index in
            let device = DeviceID(rawValue: UInt64.random(in: 1...4, using: &rng))
            if Int.random(in: 0..<20, using: &rng) == 0 {
                return .deviceName(DeviceNameRecord(device: device, hlc: HybridTimestamp(milliseconds: 1_600_000_000_000 + Int64(index)),
                                                    name: "device \(index)"))
            }
            let memo = Bool.random(using: &rng) ? String(repeating: "駅", count: Int.random(in: 1...40, using: &rng)) : nil
            return .stationEdit(StationEdit(id: EventID(device: device, seq: UInt64(index + 1)),
                                            hlc: HybridTimestamp(milliseconds: 1_700_000_000_000 + Int64(index)),
                                            station: UInt32.random(in: 1...9_000, using: &rng), compDate: .year(2000 + index % 20),
                                            memo: memo, origin: .user))
        }
    }

    @Test("pages hold every record once, in order, within their bounds", arguments: [1, 2, 3, 4, 5])
    func pages(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let all = Self.records(&rng, count: Int.random(in: 0...3_000, using: &rng))
        let encoded = EncodedRecords(all)
        let limit = Int.random(in: 1...500, using: &rng), budget = Int.random(in: 1...20_000, using: &rng)
        let pages = encoded.pages(records: limit, bytes: budget, size: { $0.length })
        #expect(pages.flatMap(\.records) == all)
        #expect(pages.allSatisfy { $0.count > 0 && $0.count <= limit })
        for page in pages {
            var sizes: [Int] = []
            page.forEach { sizes.append($0.length) }
            #expect(sizes.dropLast().reduce(0, +) < budget, "a page ends at most one record past its budget")
            #expect(sizes.reduce(0, +) == page.bytes.count)
        }
    }

    @Test("runs copied in one go are the records taken, in order", arguments: [1, 2, 3, 4, 5])
    func runs(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let all = Self.records(&rng, count: Int.random(in: 0...2_000, using: &rng))
        let encoded = EncodedRecords(all)
        let taken = Set((0..<all.count).filter { _ in Int.random(in: 0..<4, using: &rng) > 0 })
        var index = 0
        var shown = 0
        var copied = EncodedRecords()
        encoded.forEachRun(where: { _ in
            defer { index += 1 }
            shown += 1
            return taken.contains(index)
        }) { copied.append(validated: $0, count: $1) }
        #expect(shown == all.count)
        #expect(copied.records == all.indices.filter(taken.contains).map { all[$0] })
        #expect(copied.count == taken.count)
    }
}
