/// The little-endian integers of Schemas/encryption.md (associated data, wrapped keys, the kit),
/// as segment-format.md writes them.
extension Array where Element == UInt8 {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    /// The u32 stored little-endian at `offset` (4 bytes there must exist).
    func littleEndianUInt32(at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(self[offset + $1]) << UInt32(8 * $1) }
    }
}
