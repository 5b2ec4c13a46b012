import LedgerCore
import LedgerSync
import SyncServer
import Testing

/// The digests both stores remember for pulls (`RecentDigests`, Schemas/server-store.md): the
/// newest event of each device a page sends, and a bound that starts again instead of growing.
@Suite("Recent digests")
struct RecentDigestsTests {
    static let phone = FramesStoredAsTheyComeTests.phone
    static let tablet = FramesStoredAsTheyComeTests.tablet

    /// Runs of each device, interleaved, names among them: the answer is each device's last event.
    @Test("each device's newest event in a page, whatever the runs", arguments: [1, 2, 7, 500])
    func newestOfEachDevice(run: UInt64) throws {
        var records: [LedgerRecord] = [.deviceName(DeviceNameRecord(device: Self.phone, hlc: HybridTimestamp(milliseconds: 1), name: "phone"))]
        var seqs: [DeviceID: UInt64] = [Self.phone: 0, Self.tablet: 0]
        for index in 0..<max(3, 1_000 / run) {
            let device = index % 3 == 2 ? Self.tablet : Self.phone
            for _ in 0..<run {
                seqs[device]! += 1
                records.append(FramesStoredAsTheyComeTests.edit(device, seqs[device]!))
            }
        }
        records.append(.deviceName(DeviceNameRecord(device: Self.tablet, hlc: HybridTimestamp(milliseconds: 2), name: "tablet")))
        var expected: [EventID: String] = [:]
        for (device, seq) in seqs {
            let newest = try #require(records.last { $0.eventID == EventID(device: device, seq: seq) })
            expected[EventID(device: device, seq: seq)] = EventDigest.hex(newest)
        }
        #expect(EncodedRecords(records).newestEventDigests() == expected)
        #expect(EncodedRecords([records[0]]).newestEventDigests().isEmpty, "names only: no event")
    }

    @Test("remembered until the bound would be passed, then started again")
    func bounded() {
        var recent = RecentDigests<Int>(capacity: 3)
        recent.remember([1: "a", 2: "b"])
        recent.remember([2: "B"])
        #expect(recent[1] == "a" && recent[2] == "B")
        recent.remember([3: "c", 4: "d"])  // 2 + 2 > 3
        #expect(recent[1] == nil && recent[2] == nil && recent[3] == "c" && recent[4] == "d")
    }
}
