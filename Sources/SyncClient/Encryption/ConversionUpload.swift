import LedgerCore
import LedgerSync

/// A device's side of turning its account encrypted (Schemas/encryption.md §9): it uploads a
/// sealed copy of every event it holds that the server's staged copy lacks, and every device's
/// name, in pages, until the server answers that the account is encrypted. The device must hold
/// every event the server does (it syncs first): the server swaps only when nothing is lacking.
package enum ConversionUpload {
    /// Uploads what the staged copy lacks; returns whether the account is encrypted now.
    package static func run(_ ledger: Ledger, connection: SyncConnection, key: DataKey, pageBytes: Int = 6 << 20,
                            pageRecords: Int = 50_000) async throws -> Bool {
        // An empty upload learns what is staged already (an interrupted conversion resumes).
        var answer = try await connection.convert(EncodedRecords(), key: key)
        if answer.encrypted { return true }
        let staged = try WireVersionVector.decode(answer.sealedHas)
        let records = try sealedCopyRecords(of: ledger, beyond: staged)
        for page in records.pages(records: pageRecords, bytes: pageBytes, size: SyncSealing.sealedLength()) {
            answer = try await connection.convert(page, key: key)
        }
        return answer.encrypted
    }

    /// What a sealed copy of `ledger` holds beyond `staged`: every device's name (a receiver keeps
    /// each distinct one once), then every event past `staged`, each device's in seq order. The
    /// conversion uploads it; `encryption replica` writes all of it for a repair.
    package static func sealedCopyRecords(of ledger: Ledger, beyond staged: [DeviceID: UInt64] = [:]) throws -> EncodedRecords {
        var records = EncodedRecords()
        for name in ledger.deviceNames.values.sorted(by: { $0.device < $1.device }) { records.append(.deviceName(name)) }
        try ledger.forEachRecord { view, _ in
            if view.hasEventID, view.seq > staged[view.device] ?? 0 { records.append(view) }
        }
        return records
    }
}
