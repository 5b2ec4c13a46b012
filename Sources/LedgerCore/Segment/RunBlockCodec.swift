/// The one block of a sealed run (Schemas/encryption.md §3.5): a run's events, all of one
/// device, laid out as segment-format.md §2a's block. A block of one device has one layout, so
/// the block is a function of the events, and sealing it is deterministic. One per sealer or
/// opener: it keeps the encoder's and decoder's scratch memory from run to run.
package final class RunBlockCodec {
    private let encoder = ColumnarBlockEncoder()
    private let decoder = ColumnarBlockDecoder()

    package init() {}

    /// Appends the block of `records` (valid records, as `RecordEncoder` writes them, of one
    /// device) to `output`.
    package func encode(_ records: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) {
        encoder.encode(records, appendingTo: &output)
    }

    /// The length of the block that starts `bytes`, read from its header (§2a: the header, the
    /// device table, three bytes a record and the seven column lengths); nil when the header is
    /// cut short or does not start with the magic.
    package static func blockLength(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= ColumnarBlock.headerSize, bytes.starts(with: ColumnarBlock.magic) else { return nil }
        func u32(_ offset: Int) -> Int { Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        let records = u32(4)
        let devices = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt16.self)))
        let columns = (0..<ColumnarBlock.variableColumnCount).reduce(0) { $0 + u32(16 + 4 * $1) }
        return ColumnarBlock.headerSize + 8 * devices + 3 * records + columns
    }

    /// The raw record stream of `block`, exactly one block, valid until the next call. The
    /// records are not yet checked as segment-format.md §3 says.
    /// - Throws: the reason the block is malformed, in segment-format.md §2a's words.
    package func decode(_ block: UnsafeRawBufferPointer) throws(RecordStream.Fault) -> UnsafeRawBufferPointer {
        do {
            return try decoder.decode(block)
        } catch {
            throw RecordStream.Fault(offset: error.offset, reason: error.reason)
        }
    }
}
