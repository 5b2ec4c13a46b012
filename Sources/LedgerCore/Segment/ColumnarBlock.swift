/// The content of a format-2 data frame: records stored column by column, with the numbers as
/// deltas in zig-zag varints and the devices as one-byte codes (Schemas/segment-format.md §2a).
///
/// Neighbouring records differ in a few low bits of seq, hlc and station; laid out row by row
/// (format 1) every record costs LZ4 several match tokens, laid out as columns the constant
/// columns vanish and the rest shrink to their entropy: 0.15 of SQLite's bytes instead of 0.38.
/// A block is a pure re-encoding of a raw record stream (§3): decoding gives back the same bytes.
enum ColumnarBlock {
    static let magic: [UInt8] = Array("ORB2".utf8)
    /// magic, record count, decoded length, device count, reserved, 7 column lengths.
    static let headerSize = 16 + 4 * variableColumnCount
    /// Columns 3 ... 9 (seqs, hlc times, hlc counters, stations, dates, origins, tails).
    static let variableColumnCount = 7
    /// Device codes are one byte.
    static let maximumDevices = 256
    /// Writers start a new frame before a frame's records pass this size, which keeps every
    /// block (never more than a few bytes per record larger than its records) under the 4 MiB
    /// frame limit whatever the records hold.
    static let writerContentLimit = 2 << 20

    /// Appends the blocks of `records` (a raw record stream of valid records, as `RecordEncoder`
    /// writes them) to `output`. Writers that encode often keep a `ColumnarBlockEncoder`.
    static func encode(_ records: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) {
        ColumnarBlockEncoder().encode(records, appendingTo: &output)
    }
}

/// LEB128 varints and zig-zag signs for the columnar block.
enum Varint {
    /// The longest varint of a u64.
    static let maximumLength = 10

    /// Maps a wrapping 64-bit difference to an unsigned number, small for small differences of
    /// either sign: 0, -1, 1, -2 … → 0, 1, 2, 3 …
    @inline(__always)
    static func zigzag(_ difference: UInt64) -> UInt64 {
        let signed = Int64(bitPattern: difference)
        return UInt64(bitPattern: (signed << 1) ^ (signed >> 63))
    }

    @inline(__always)
    static func unzigzag(_ value: UInt64) -> UInt64 {
        (value >> 1) ^ (0 &- (value & 1))
    }
}
