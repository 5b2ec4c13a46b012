import LedgerCore

/// What `MergeAdmission.admit` accepted: the new events (in `(device, seq)` order, as bytes of
/// the received batch) and the device names newer than the receiver's. `LedgerMerger.apply`
/// appends it; a store without a ledger reads its records.
package struct AdmittedBatch {
    let batch: RecordBatch
    /// The new events, sorted by (device, seq): (offset, length) in `batch.bytes`.
    let order: [(offset: Int, length: Int)]
    package internal(set) var names: [DeviceNameRecord]
    /// Received events the receiver already held (identical copies).
    package let duplicates: Int
    /// What was received, when it came as frames and every record of it was admitted in an order
    /// that continues every device: `apply` then appends those frames as they are.
    package private(set) var asReceived: EncodedRecords?

    /// Keeps `incoming`, what this batch was admitted from, as `asReceived` when it came as frames
    /// and everything was admitted (no copy, no older name), each device in seq order: the
    /// received order is then one the log can take, so the frames can be stored as they came.
    /// Every store's admission ends with this one rule.
    package mutating func keepFrames(of incoming: EncodedRecords) {
        if incoming.frames != nil, duplicates == 0, batch.isInOrder, eventCount + names.count == incoming.count {
            asReceived = incoming
        }
    }

    package var isEmpty: Bool { order.isEmpty && names.isEmpty }
    package var eventCount: Int { order.count }

    /// The new events, in (device, seq) order.
    package func forEachEvent(_ body: (RecordView) throws -> Void) rethrows {
        try batch.records.bytes.withUnsafeBytes { buffer in
            for (offset, length) in order { try body(RecordView(validated: buffer.baseAddress! + offset, length: length)) }
        }
    }

    /// The newest new event of each device: the last of each device's run.
    package func forEachNewest(_ body: (RecordView) throws -> Void) rethrows {
        try batch.records.bytes.withUnsafeBytes { buffer in
            var previous: RecordView?
            for (offset, length) in order {
                let view = RecordView(validated: buffer.baseAddress! + offset, length: length)
                if let last = previous, last.device != view.device { try body(last) }
                previous = view
            }
            if let previous { try body(previous) }
        }
    }

    /// The new events decoded, in (device, seq) order.
    package var events: [LedgerRecord] {
        var records: [LedgerRecord] = []
        records.reserveCapacity(order.count)
        forEachEvent { records.append($0.record) }
        return records
    }

    /// How many records would be appended (events and names) and their encoded bytes.
    package var appendedSize: (records: Int, bytes: Int) {
        let names = self.names.reduce(0) { $0 + RecordEncoder.encodedSize(of: .deviceName($1)) }
        return (order.count + self.names.count, order.reduce(names) { $0 + $1.length })
    }
}
