import LedgerCore
import LedgerSync

extension UserLedger {
    /// `POST /v1/account/encryption` on the files store (`AccountConversion`): stages the sealed
    /// records, one operation of the user's at a time, and replaces the plaintext log once the
    /// staged copy holds all of it. The plaintext log keeps serving until then.
    func convert(_ records: SealedRecords, fingerprint: String) async throws -> ConversionAnswer {
        let conversion = AccountConversion(store: store, user: user)
        return try await serialised { opened in
            let plain = try opened.plain()
            let sealedHas = try await self.io(plain) { _ in try conversion.stage(records, fingerprint: fingerprint) }
            let plaintextHas = plain.ledger.versionVector
            let covered = plaintextHas.allSatisfy { sealedHas[$0.key] ?? 0 >= $0.value }
            guard covered else {
                return ConversionAnswer(encrypted: false, sealedHas: WireVersionVector.encode(sealedHas), serverHas: plain.serverHas)
            }
            // The plaintext log's lock is released before its directory is set aside.
            await self.closeNow()
            try await self.store.io { try conversion.swap() }
            return ConversionAnswer(encrypted: true, sealedHas: WireVersionVector.encode(sealedHas),
                                    serverHas: WireVersionVector.encode(sealedHas))
        }
    }

    /// Opens the user's ledger (finishing an interrupted conversion first), if it is not open.
    func open() async throws {
        _ = try await serialised { _ in true }
    }
}
