import LedgerCore
import LedgerSync

/// A user's open ledger in the files store: a plaintext account's (`OpenUserLedger`) or an end-to-end
/// encrypted account's sealed one (`OpenSealedLedger`, Schemas/encryption.md §11). A request of
/// the other kind is refused (409) with a sentence that says which the account is.
enum OpenedLedger: Sendable {
    case plain(OpenUserLedger)
    case sealed(OpenSealedLedger)

    /// Opens `directory` as what its `ledger.json` says it is; a directory without one is
    /// created sealed when `sealedIfNew` (the account is encrypted), plaintext otherwise.
    init(directory: String, sealedIfNew: Bool, clock: any WallClock, fileSystem: any FileSystem) throws {
        let sealed = try LedgerMetadata.recordForm(ofLedgerAt: directory, fileSystem: fileSystem).map { $0 == .sealed } ?? sealedIfNew
        self = sealed ? .sealed(try OpenSealedLedger(directory: directory, clock: clock, fileSystem: fileSystem))
                      : .plain(try OpenUserLedger(directory: directory, clock: clock, fileSystem: fileSystem))
    }

    func close() {
        switch self {
        case .plain(let open): open.close()
        case .sealed(let open): open.close()
        }
    }

    /// The plaintext ledger; an encrypted account's refuses a plaintext request.
    func plain() throws -> OpenUserLedger {
        guard case .plain(let open) = self else { throw SyncServerError.encryptedAccount }
        return open
    }

    /// The sealed ledger; a plaintext account's refuses sealed records.
    func sealed() throws -> OpenSealedLedger {
        guard case .sealed(let open) = self else { throw SyncServerError.plaintextAccount }
        return open
    }
}
