import Foundation
import LedgerCore
import Synchronization

/// Token hash → user, from `DATA/users.json`, rebuilt when the file changes: every lookup
/// stats the file (inode, size, mtime; `UserStore` replaces it by rename, so every change is a
/// new inode), so `server add-token`, `revoke-token` and `delete-user` run by another process
/// take effect on the next request. A lookup is one dictionary access, not a scan of all users.
final class TokenIndex: Sendable {
    private struct Stamp: Equatable { var inode: UInt64; var size: UInt64; var modified: Date }
    private struct State { var stamp: Stamp?; var users: [String: String] = [:] }

    private let users: UserStore
    private let state = Mutex(State())

    init(users: UserStore) { self.users = users }

    func user(forTokenHash hash: String) throws -> String? {
        let stamp = currentStamp()
        if let found = state.withLock({ $0.stamp == stamp && stamp != nil ? Optional($0.users[hash]) : nil }) {
            return found
        }
        let index = try users.tokenIndex()
        state.withLock { $0 = State(stamp: stamp, users: index) }
        return index[hash]
    }

    private func currentStamp() -> Stamp? {
        guard let info = try? FileManager.default.attributesOfItem(atPath: users.path),
              let inode = info[.systemFileNumber] as? UInt64, let size = info[.size] as? UInt64,
              let modified = info[.modificationDate] as? Date else { return nil }
        return Stamp(inode: inode, size: size, modified: modified)
    }
}
