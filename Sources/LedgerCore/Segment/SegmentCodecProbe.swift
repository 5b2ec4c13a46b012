/// The segment codec's internals as the fuzz harness drives them (`SegmentFuzzing` in
/// LedgerTestSupport, which Tools/fuzz builds in release, where `@testable import` is not
/// available). Everything else reads and writes segments through `SegmentReader` and `Ledger`;
/// the block coder, the footer and the checkpoint codecs stay inside LedgerCore.
package final class SegmentCodecProbe {
    // Kept from input to input: a decoder's buffers cost more than decoding a small input.
    private let decoder = LZ4FrameDecoder()
    private let blockDecoder = ColumnarBlockDecoder()

    package init() {}

    /// Whether `bytes` start as a format-2 block stream (what `lz4 -dc` prints for a format-2
    /// segment; Schemas/segment-format.md §2a).
    package static func startsWithBlocks(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.starts(with: ColumnarBlock.magic)
    }

    /// Whether a segment file's bytes end in a footer that decodes.
    package static func endsInFooter(_ segment: UnsafeRawBufferPointer) -> Bool {
        if case .sealed = SegmentFooter.decodeTrailing(segment) { return true }
        return false
    }

    /// A reader of one segment that shares this probe's decoders.
    package func reader(path: String, policy: SegmentReader.Policy, expectation: SegmentReader.Expectation) -> SegmentReader {
        SegmentReader(path: path, policy: policy, expectation: expectation, decoder: decoder, blockDecoder: blockDecoder)
    }

    /// Runs the footer decoders and the block decoder on untrusted bytes. Returns the raw record
    /// stream the bytes decode to as blocks (valid until the next call), or `nil`.
    package func decodeFooterAndBlocks(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        _ = SegmentFooter.decodeTrailing(bytes)
        _ = SegmentFooter.decodeFrame(bytes)
        return try? blockDecoder.decode(bytes)
    }

    /// `records` (whole records back to back, plaintext or sealed) as format-2 blocks: the
    /// conformance corpus gives blocks to the app's decoder.
    package static func blocks(of records: UnsafeRawBufferPointer) -> [UInt8] {
        var blocks: [UInt8] = []
        ColumnarBlock.encode(records, appendingTo: &blocks)
        return blocks
    }

    /// The raw record stream untrusted blocks decode to, or why a block is refused (nothing
    /// about the records themselves is checked here).
    package func records(inBlocks bytes: UnsafeRawBufferPointer) -> Result<[UInt8], BlockRefusal> {
        do { return .success(Array(try blockDecoder.decode(bytes))) } catch {
            return .failure(BlockRefusal(offset: error.offset, reason: error.reason))
        }
    }

    /// A block refused: its offset in the bytes given, and why.
    package struct BlockRefusal: Error, Equatable {
        package var offset: Int
        package var reason: String
    }

    /// Whether `records` (valid records, as `RecordEncoder` writes them), encoded as format-2
    /// blocks, decode to exactly their bytes.
    package func blocksRoundTrip(_ records: UnsafeRawBufferPointer) -> Bool {
        var blocks: [UInt8] = []
        ColumnarBlock.encode(records, appendingTo: &blocks)
        let decoded = blocks.withUnsafeBytes { try? blockDecoder.decode($0) }
        return decoded.map { $0.elementsEqual(records) } == true
    }
}
