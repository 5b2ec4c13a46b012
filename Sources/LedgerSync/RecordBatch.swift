import LedgerCore

/// The new events an admission received (`MergeAdmission`), kept in one `EncodedRecords` (the one
/// batch of bytes, as a segment frame holds them: Schemas/segment-format.md §3), with one run of
/// (offset, length) per device to put them in `(device, seq)` order. A local merge adds the other
/// ledger's records as they are, a push or pull its decoded records; they are appended as bytes
/// (`Ledger.append`): decoding the records, sorting and copying them and encoding them again was
/// a third of a large merge.
package struct RecordBatch {
    private(set) var records = EncodedRecords()
    /// Per device (in the order first seen): its id, its records' (offset, length), its last
    /// seq added, and whether those came in seq order (a ledger's log holds each device's events
    /// in seq order, so a scan needs no comparison sort).
    private var devices: [(device: DeviceID, records: [(offset: Int, length: Int)], lastSeq: UInt64, inOrder: Bool)] = []
    private var runDevice: UInt64 = 0
    private var runSlot = -1

    var count: Int { records.count }
    /// Whether every device's events came in ascending seq order.
    var isInOrder: Bool { devices.allSatisfy(\.inOrder) }

    init() {}

    /// Room for what is expected: `counts` events per device (a bound from the two version
    /// vectors). Growing by doubling copied everything read so far at each step, into freshly
    /// faulted pages; capacity never touched costs no memory, so the bytes are reserved
    /// generously, up to a cap.
    /// Room for `bytes` bytes of records received (a batch read from the wire).
    init(expectingBytes bytes: Int) {
        records.reserve(bytes: bytes)
    }

    init(expecting counts: [(DeviceID, UInt64)]) {
        let total = counts.reduce(0) { $0 + Int(min($1.1, 1 << 26)) }
        records.reserve(bytes: min(total * Self.expectedRecordBytes, Self.reservationCap))
        for (device, count) in counts where count > 0 {
            var runs: [(offset: Int, length: Int)] = []
            runs.reserveCapacity(min(Int(min(count, 1 << 26)), Self.reservationCap / 16))
            devices.append((device, runs, 0, true))
        }
    }

    /// A station edit's record is 38 bytes plus its memo (Schemas/segment-format.md §3).
    private static let expectedRecordBytes = 64
    private static let reservationCap = 256 << 20

    /// Whether any record is `device`'s.
    func holds(_ device: DeviceID) -> Bool { devices.contains { $0.device == device && !$0.records.isEmpty } }

    /// Adds an event's encoded record (a view of a validated record).
    mutating func add(_ view: RecordView) {
        let device = view.device.rawValue
        if device != runDevice || runSlot < 0 {
            runDevice = device
            runSlot = devices.firstIndex { $0.device.rawValue == device } ?? -1
            if runSlot < 0 {
                // A device beyond the expected ones (or none were given).
                runSlot = devices.count
                devices.append((view.device, [], 0, true))
            }
        }
        let seq = view.seq
        if seq <= devices[runSlot].lastSeq { devices[runSlot].inOrder = false }
        devices[runSlot].lastSeq = seq
        devices[runSlot].records.append((records.bytes.count, view.length))
        records.append(view)
    }

    /// Every record's (offset, length), sorted by `(device, seq)`; equal ids stay in the order
    /// they were added, side by side.
    func sorted() -> [(offset: Int, length: Int)] {
        var result: [(offset: Int, length: Int)] = []
        result.reserveCapacity(count)
        for entry in devices.sorted(by: { $0.device.rawValue < $1.device.rawValue }) {
            guard !entry.inOrder else {
                result.append(contentsOf: entry.records)
                continue
            }
            let keyed = records.bytes.withUnsafeBytes { buffer in
                entry.records.map { (seq: RecordView(validated: buffer.baseAddress! + $0.offset, length: $0.length).seq, record: $0) }
            }
            // Offsets grow in arrival order: (seq, offset) is a stable sort by seq.
            result.append(contentsOf: keyed.sorted { ($0.seq, $0.record.offset) < ($1.seq, $1.record.offset) }.map(\.record))
        }
        return result
    }

    /// The record at (offset, length) as a view, for the length of `body`.
    func withView<T>(at offset: Int, length: Int, _ body: (RecordView) throws -> T) rethrows -> T {
        try records.bytes.withUnsafeBytes { try body(RecordView(validated: $0.baseAddress! + offset, length: length)) }
    }
}
