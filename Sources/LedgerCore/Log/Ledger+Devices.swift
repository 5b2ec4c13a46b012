extension Ledger {
    /// The device `text` names in this ledger (`replay --device`): a 16-hex-digit id in either
    /// case, else the name that exactly one device's name record gives. No such device, or
    /// several of that name, is a usage error (exit 64) that says which.
    package func device(named text: String) throws -> DeviceID {
        if let id = DeviceID(hex: text.lowercased()) { return id }
        let matches = deviceNames.values.filter { $0.name == text }.map(\.device)
        guard matches.count == 1 else {
            throw LedgerError(.usage, matches.isEmpty ? "no device is named '\(text)' in this ledger"
                                                      : "\(matches.count) devices are named '\(text)'; give the id")
        }
        return matches[0]
    }
}
