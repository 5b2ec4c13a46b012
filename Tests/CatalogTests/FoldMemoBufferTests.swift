import LedgerTestSupport
import Testing
@testable import LedgerCatalog

/// `FoldMemoBuffer` against a dictionary: seeded sequences of memo writes over a few slots
/// (empty memos, multi-byte text, the 4 KiB maximum), with a compaction threshold small enough
/// that compaction runs many times in each sequence.
@Suite struct FoldMemoBufferTests {
    static let memos = ["", "a", "津駅で乗り換え", String(repeating: "x", count: 4096), "最後の一駅 🚃"]

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func matchesADictionary(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var buffer = FoldMemoBuffer(compactionThreshold: 256)
        var model: [Int: String] = [:]
        var overgrown: [String] = []
        for _ in 0..<5_000 {
            let slot = Int.random(in: 0..<40, using: &random)
            let memo = Self.memos.randomElement(using: &random)!
            var bytes = Array(memo.utf8)
            bytes.withUnsafeMutableBytes { buffer.set(slot, UnsafeRawBufferPointer($0)) }
            model[slot] = memo
            // Superseded memos are dropped: the buffer stays within four times the live bytes
            // (or the threshold), plus the memo just added.
            let live = model.values.reduce(0) { $0 + $1.utf8.count }
            if buffer.bufferedBytes > max(256, 4 * live) + bytes.count {
                overgrown.append("\(buffer.bufferedBytes) bytes for \(live) live")
            }
        }
        var seen: [Int: String] = [:]
        buffer.forEach { slot, memo in seen[slot] = memo }
        #expect(seen == model)
        #expect(overgrown.isEmpty, "\(overgrown.prefix(3))")
    }

    @Test func emptyBufferHasNoMemos() {
        var count = 0
        FoldMemoBuffer().forEach { _, _ in count += 1 }
        #expect(count == 0)
    }
}
