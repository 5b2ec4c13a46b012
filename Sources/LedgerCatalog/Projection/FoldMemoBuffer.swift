/// The winning memos of a whole-log fold, kept as bytes until the fold ends.
///
/// A long history rewrites memos many times: building a `String` for each winner (an
/// allocation and a UTF-8 check, then freeing the one it replaces) cost a whole-log fold more
/// than all of its other bookkeeping (BENCHMARKS.md §12). Here a winner's bytes are appended
/// to one buffer, and only each station's last winner becomes a `String`. The bytes come from
/// records the reader has already checked to be UTF-8.
struct FoldMemoBuffer {
    private var bytes: [UInt8] = []
    /// Per row slot: `start << 16 | present | count` (a memo has at most 4 KiB), 0 when none.
    private var spans: [UInt64] = []
    /// Bytes of `bytes` that spans still point at.
    private var liveBytes = 0

    /// Compaction starts once the buffer is past this size and mostly superseded memos.
    private let compactionThreshold: Int

    private static let present: UInt64 = 1 << 15

    init(compactionThreshold: Int = 1 << 20) {
        self.compactionThreshold = compactionThreshold
    }

    /// The buffer's size, superseded memos included.
    var bufferedBytes: Int { bytes.count }

    /// Makes `memo` the memo of row `slot`, replacing any earlier one.
    mutating func set(_ slot: Int, _ memo: UnsafeRawBufferPointer) {
        if slot >= spans.count {
            spans.append(contentsOf: [UInt64](repeating: 0, count: max(slot + 1, spans.count * 2, 1024) - spans.count))
        }
        liveBytes += memo.count - Self.count(spans[slot])
        if bytes.count > compactionThreshold, bytes.count > 4 * liveBytes { compact() }
        spans[slot] = UInt64(bytes.count) << 16 | Self.present | UInt64(memo.count)
        bytes.append(contentsOf: memo)
    }

    /// Calls `body` with each row slot that has a memo and that memo as a `String`.
    func forEach(_ body: (Int, String) -> Void) {
        bytes.withUnsafeBufferPointer { buffer in
            for (slot, span) in spans.enumerated() where span != 0 {
                let start = Int(span >> 16)
                body(slot, String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<start + Self.count(span)]),
                                  as: UTF8.self))
            }
        }
    }

    /// Drops the bytes of superseded memos, so the buffer stays near the size of the live ones.
    private mutating func compact() {
        var kept: [UInt8] = []
        kept.reserveCapacity(liveBytes)
        for slot in spans.indices where spans[slot] != 0 {
            let start = Int(spans[slot] >> 16), count = Self.count(spans[slot])
            spans[slot] = UInt64(kept.count) << 16 | Self.present | UInt64(count)
            kept.append(contentsOf: bytes[start..<start + count])
        }
        bytes = kept
    }

    private static func count(_ span: UInt64) -> Int { Int(span & (present - 1)) }
}
