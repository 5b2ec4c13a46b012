import LedgerCore
import NIOConcurrencyHelpers

/// Token hash → user, user → generation and encryption, and revoked token hash → when, from `DATA/users.json`, rebuilt when the file
/// changes: every lookup stats the file (inode, size, mtime; `UserStore` replaces it by rename,
/// so every change is a new inode), so `server add-token`, `revoke-token` and `delete-user` run
/// by another process take effect on the next request. A lookup is one dictionary access, not a
/// scan of all users. Each rebuild reports the generations to `reloaded`, so that the store
/// drops what it holds for a user who was deleted (and perhaps made again) meanwhile. On a file
/// system in memory (a crash test's) there is nothing to stat: every lookup reads the file.
final class TokenIndex: Sendable {
    private struct State {
        var stamp: FileStamp?
        var users: [String: String] = [:]
        var generations: [String: String] = [:]
        var revocations: [String: Int64] = [:]
        var encryptions: [String: AccountEncryption] = [:]
    }

    private let users: UserStore
    private let reloaded: @Sendable ([String: String]) -> Void
    private let state = NIOLockedValueBox(State())

    init(users: UserStore, reloaded: @escaping @Sendable (_ generations: [String: String]) -> Void) {
        (self.users, self.reloaded) = (users, reloaded)
    }

    func user(forTokenHash hash: String) throws -> String? {
        try current().users[hash]
    }

    /// When a revoked token (its hash) was revoked; nil for an active or unknown one.
    func revocation(ofTokenHash hash: String) throws -> Int64? {
        try current().revocations[hash]
    }

    /// The user's generation now ("" for a user made before generations existed), nil for a user
    /// that does not exist (deleted).
    func generation(of user: String) throws -> String? {
        try current().generations[user]
    }

    /// The user's end-to-end encryption (Schemas/encryption.md §11); nil for a plaintext account.
    func encryption(of user: String) throws -> AccountEncryption? {
        try current().encryptions[user]
    }

    private func current() throws -> State {
        let stamp = users.stamp
        if let state = state.withLockedValue({ $0.stamp == stamp && stamp != nil ? Optional($0) : nil }) { return state }
        let index = try users.accountIndex()
        let fresh = State(stamp: stamp, users: index.tokens, generations: index.generations, revocations: index.revocations,
                          encryptions: index.encryptions)
        state.withLockedValue { $0 = fresh }
        reloaded(index.generations)
        return fresh
    }
}
