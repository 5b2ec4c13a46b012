import LedgerCore

/// The events another ledger holds beyond this one, kept as their encoded bytes, one run per
/// device in seq order (a ledger's log holds each device's events in seq order, so collecting
/// them per device sorts them by `(device, seq)` without a comparison sort).
///
/// A merge appends these bytes as they are (`Ledger.appendReplicated(encoded:)`): decoding them
/// into `LedgerRecord`s, sorting and copying those, and encoding them again was a third of a
/// large merge.
struct IncomingRecords {
    private(set) var bytes: [UInt8] = []
    /// Per device (in the order first seen): its id and its records' (offset, length).
    private var devices: [(device: DeviceID, records: [(offset: Int, length: Int)])] = []
    private var runDevice: UInt64 = 0
    private var runSlot = -1

    var count: Int { devices.reduce(0) { $0 + $1.records.count } }

    init() {}

    /// Room for what is expected: `counts` events per device (a bound from the two version
    /// vectors). Growing by doubling copied everything read so far at each step, into freshly
    /// faulted pages; capacity never touched costs no memory, so the bytes are reserved
    /// generously, up to a cap.
    init(expecting counts: [(DeviceID, UInt64)]) {
        let total = counts.reduce(0) { $0 + Int(min($1.1, 1 << 26)) }
        bytes.reserveCapacity(min(total * Self.expectedRecordBytes, Self.reservationCap))
        for (device, count) in counts where count > 0 {
            var records: [(offset: Int, length: Int)] = []
            records.reserveCapacity(min(Int(min(count, 1 << 26)), Self.reservationCap / 16))
            devices.append((device, records))
        }
    }

    /// A station edit's record is 38 bytes plus its memo (Schemas/segment-format.md §3).
    private static let expectedRecordBytes = 64
    private static let reservationCap = 256 << 20

    /// Whether any record is `device`'s.
    func holds(_ device: DeviceID) -> Bool { devices.contains { $0.device == device && !$0.records.isEmpty } }

    mutating func add(_ view: RecordView) {
        let device = view.device.rawValue
        if device != runDevice || runSlot < 0 {
            runDevice = device
            runSlot = devices.firstIndex { $0.device.rawValue == device } ?? -1
            if runSlot < 0 {
                // A device beyond the expected ones (or none were given).
                runSlot = devices.count
                devices.append((view.device, []))
            }
        }
        devices[runSlot].records.append((bytes.count, view.length))
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: view.base, count: view.length))
    }

    /// Every record's (offset, length), sorted by `(device, seq)`.
    func sorted() -> [(offset: Int, length: Int)] {
        var result: [(offset: Int, length: Int)] = []
        result.reserveCapacity(count)
        for entry in devices.sorted(by: { $0.device.rawValue < $1.device.rawValue }) {
            result.append(contentsOf: entry.records)
        }
        return result
    }
}
