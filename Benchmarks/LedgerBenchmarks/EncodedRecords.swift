import LedgerCore

/// Records already encoded, to measure decoding alone.
struct EncodedRecords {
    let bytes: [UInt8]

    /// Validates and decodes every record (the replay's inner loop); returns a checksum.
    func decodeAll() throws -> UInt64 {
        var sum: UInt64 = 0
        try bytes.withUnsafeBytes { buffer in
            try RecordStream.forEach(in: buffer) { (view) -> Void in
                sum &+= view.hlc.rawValue ^ view.device.rawValue
                if view.kind == .stationEdit { sum &+= UInt64(view.station) &+ UInt64(view.compDateCode) }
            }
        }
        return sum
    }
}
