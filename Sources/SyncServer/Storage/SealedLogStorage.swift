import LedgerCore
import LedgerSync

/// The requests of an end-to-end encrypted account's log (Schemas/encryption.md §10, §11), which
/// both stores answer without the key: its records are sealed, travel as frames only, and are
/// admitted by `SealedAdmission`. A plaintext account refuses both (409 `plaintext-account`).
package protocol SealedLogStorage: Sendable {
    /// The sealed records `request.have` lacks, in the user's log order from `request.cursor`,
    /// with the stored digests and epochs at `have` and at `server_has` (the device compares).
    func pullSealed(user: String, request: PullRequest) async throws -> SealedPullAnswer
    /// Admits sealed records under the account's current key epoch and appends what the store
    /// lacks, all or nothing, durably before returning.
    func pushSealed(user: String, records: SealedRecords) async throws -> PushResponse
    /// `POST /v1/account/encryption` (Schemas/encryption.md §9): stages a plaintext account's
    /// events sealed under epoch 1 of the key `fingerprint`, and turns the account encrypted once
    /// the staged copy holds every event (an account encrypted with that key already answers so).
    func convert(user: String, fingerprint: String, records: SealedRecords) async throws -> ConversionAnswer
}
