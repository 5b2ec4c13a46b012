/// What a ledger's segments hold (Schemas/segment-format.md §6 `records`): a device's and a
/// plaintext account's event records (kinds 1–4), or an end-to-end encrypted account's sealed
/// records (kinds 5 and 6, §3.6), which the server keeps without the key. A ledger holds one
/// form only; every reader says which it expects, and refuses the other.
package enum LedgerRecords: String, Codable, Sendable {
    case plain
    case sealed

    /// The refusal of a directory holding the other form, in one sentence.
    package func mismatch(directory: String) -> LedgerError {
        switch self {
        case .plain:
            LedgerError(.usage, "the ledger at \(directory) holds sealed (end-to-end encrypted) records, which only the sync server keeps; open a device's ledger instead")
        case .sealed:
            LedgerError(.usage, "the ledger at \(directory) holds plaintext records, not an encrypted account's sealed records")
        }
    }
}
