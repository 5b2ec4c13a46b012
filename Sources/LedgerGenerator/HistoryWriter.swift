import LedgerCore

/// Writes a generated history into a ledger in large durable batches.
///
/// Every batch goes through `Ledger.append` (the generated devices are foreign to the
/// ledger, as if their logs had been merged in): each device's seqs continue exactly, the ledger
/// splits a batch into frames of at most 4 MiB and fsyncs once per batch. Only one batch is held
/// in memory at a time.
package enum HistoryWriter {
    /// About 4 MiB of records (a station edit takes 38 bytes, more with a memo).
    package static let defaultBatchSize = 100_000

    /// Appends `events` generated events (after one device-name record per device).
    /// `progress` is called after each batch with the number of events written so far.
    package static func write(
        events: Int, from generator: inout HistoryGenerator, into ledger: Ledger,
        batchSize: Int = defaultBatchSize, progress: (Int) -> Void = { _ in }
    ) throws {
        var batch: [LedgerRecord] = generator.deviceNameRecords()
        batch.reserveCapacity(batchSize + batch.count)
        var written = 0
        while written < events {
            let count = min(batchSize, events - written)
            for _ in 0..<count { batch.append(.stationEdit(generator.next())) }
            try ledger.append(batch)
            batch.removeAll(keepingCapacity: true)
            written += count
            progress(written)
        }
        if !batch.isEmpty { try ledger.append(batch) }
    }
}
