import LedgerCore
import LedgerSync

/// The replicas `server repair` is given, read the same way on both stores: a replica must be of
/// the account's form (a device's plaintext ledger for a plaintext account; for an end-to-end
/// encrypted one, a sealed ledger: a `server export` of it, or what `oritsubushi encryption
/// replica` writes), and a sealed replica may hold only epochs the account has
/// (Schemas/encryption.md §11, "Repairing a sealed log"). Each refusal is one sentence, and
/// comes before anything is changed.
package enum ReplicaRecords {
    /// The records of the replica at `directory` (a directory the operator names, outside the
    /// store: the real disk) that `keep` wants, in log order. `epoch`: a sealed account's current
    /// key epoch.
    package static func read<Record: RepairableRecord>(_ form: Record.Type, from directory: String, of user: String, epoch: UInt32?,
                                                       clock: any WallClock, where keep: (EventID?) -> Bool = { _ in true }) throws -> [Record] {
        // A replica that does not read is refused by the opening below, in its own words.
        if let form = try? LedgerMetadata.recordForm(ofLedgerAt: directory, fileSystem: PosixFileSystem()), form != Record.form {
            throw Record.form == .sealed
                ? LedgerError(.usage, "user '\(user)' is end-to-end encrypted and \(directory) is a device's plaintext ledger without the account's key: repair from sealed replicas, a 'server export' of the user or what 'oritsubushi encryption replica DIR' writes on a device; nothing was changed",
                              cause: .plaintextReplica(directory))
                : LedgerError(.usage, "\(directory) holds sealed (end-to-end encrypted) records, and user '\(user)''s account is plaintext: repair from a device's ledger; nothing was changed")
        }
        let source = try Ledger.open(directory: directory, clock: clock, records: Record.form)
        defer { source.close() }
        let records = try Record.records(of: source, where: keep)
        if let epoch, let record = records.first(where: { $0.sealedEpoch.map { $0 == 0 || $0 > epoch } ?? false }) {
            throw LedgerError(.conflict, "\(directory) holds records sealed under key epoch \(record.sealedEpoch!), which user '\(user)' does not have (it is at epoch \(epoch)): a replica of another account; nothing was changed")
        }
        return records
    }
}
