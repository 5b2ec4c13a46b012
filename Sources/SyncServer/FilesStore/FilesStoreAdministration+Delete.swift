import LedgerCore

extension FilesStoreAdministration {
    /// `server delete-user NAME --yes`: the users.json entry (every token) first, so the server
    /// refuses the user (401) and writes nothing more for them; then their device claims, their
    /// ledger directory, their activity file (and a temporary one a crash left while it was
    /// written) and what a conversion to encryption left, each parent directory fsynced. Running it again after a crash midway removes
    /// what is left.
    package func deleteUser(_ name: String) async throws {
        try UserStore.validate(name: name)
        let listed = try accounts.users().contains { $0.name == name }
        let claims = try deviceClaims().filter { $0.value == name }.keys.sorted()
        let ledger = ledgerPath(name)
        let activity = UserActivity.path(dataDirectory: dataDirectory, user: name)
        let activityFiles = [activity, activity + ".tmp"].filter { fileSystem.fileExists($0) }
        guard listed || !claims.isEmpty || fileSystem.directoryExists(ledger) || !activityFiles.isEmpty else {
            throw LedgerError(.usage, "no user '\(name)' in \(dataDirectory)")
        }
        if listed { try accounts.deleteUser(name) }
        let devices = Path.join(dataDirectory, DeviceClaims.directoryName)
        for device in claims { try fileSystem.removeFile(Path.join(devices, device)) }
        if !claims.isEmpty { try fileSystem.syncDirectory(devices) }
        if fileSystem.directoryExists(ledger) {
            try fileSystem.removeTree(ledger)
            try fileSystem.syncDirectory(ledgersPath)
        }
        if !activityFiles.isEmpty {
            for file in activityFiles { try fileSystem.removeFile(file) }
            try fileSystem.syncDirectory(Path.parent(of: activity))
        }
        // What a conversion to encryption left (`AccountConversion`): its readable copy too.
        let converting = Path.join(Path.join(dataDirectory, AccountConversion.directoryName), name)
        if fileSystem.directoryExists(converting) {
            try fileSystem.removeTree(converting)
            try fileSystem.syncDirectory(Path.parent(of: converting))
        }
    }
}
