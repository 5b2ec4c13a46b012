import LedgerCore
import LedgerSync

/// The files store's side of an end-to-end encrypted account's log (Schemas/encryption.md §11):
/// the user's ledger directory in sealed mode (`OpenSealedLedger`).
extension FilesStore {
    package func pullSealed(user: String, request: PullRequest) async throws -> SealedPullAnswer {
        let have = try ForkCheck.decodeHave(request)
        return try await ledger(user).pullSealed(request, have: have, pages: limits.pages(.frames))
    }

    package func pushSealed(user: String, records: SealedRecords) async throws -> PushResponse {
        try PushRecords.checkCount(records.count, maximum: limits.frames.pushRecords)
        guard let epoch = try keyEpoch(of: user) else { throw SyncServerError.plaintextAccount }
        return try await ledger(user).pushSealed(records, epoch: epoch)
    }

    package func convert(user: String, fingerprint: String, records: SealedRecords) async throws -> ConversionAnswer {
        try PushRecords.checkCount(records.count, maximum: limits.frames.pushRecords)
        if let encryption = try tokens.encryption(of: user) {
            guard encryption.fingerprint == fingerprint else {
                throw SyncServerError(.conflict, "this account is end-to-end encrypted already, with another key: get it with a link from one of your devices or with the recovery kit")
            }
            let has = try await status(user: user).serverHas
            return ConversionAnswer(encrypted: true, sealedHas: has, serverHas: has)
        }
        return try await ledger(user).convert(records, fingerprint: fingerprint)
    }

    /// Finishes a conversion a crash interrupted before the account's encryption is read: the
    /// user's ledger, opening, resumes it (`AccountConversion.resume`).
    func finishInterruptedConversion(of user: String) async throws {
        guard AccountConversion(store: self, user: user).isUnderway else { return }
        try await ledger(user).open()
    }

    /// Whether `user`'s account is end-to-end encrypted (its ledger, when first made, is sealed).
    func isEncrypted(_ user: String) throws -> Bool { try keyEpoch(of: user) != nil }

    /// The account's current key epoch (users.json, through the token index); nil for plaintext.
    func keyEpoch(of user: String) throws -> UInt32? { try tokens.encryption(of: user)?.epoch }
}
