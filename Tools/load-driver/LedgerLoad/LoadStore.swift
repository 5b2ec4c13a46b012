import Foundation
import LedgerCore
import Logging
import SyncServer
import SyncServerPostgres

/// The store every instance of a run serves: a files data directory (one process only: the
/// directory is locked by its `serve`) or a PostgreSQL database (any number of instances).
package enum LoadStore: Sendable, CustomStringConvertible {
    case files(directory: String)
    case postgres(url: String)

    /// The store options of `serve` and `server …`.
    var arguments: [String] {
        switch self {
        case .files(let directory): ["--data", directory]
        case .postgres(let url): ["--store", url]
        }
    }

    var isFiles: Bool { if case .files = self { true } else { false } }

    package var description: String {
        switch self {
        case .files(let directory): "files store \(directory)"
        case .postgres(let url): "PostgreSQL store \((try? PostgresLocation(url: url).redacted) ?? url)"
        }
    }

    /// Registers `names` (idle users, one token each that nobody keeps) through the store's own
    /// administration API — what `server add-user` calls — in this process, so that 10,000 users
    /// take seconds instead of 10,000 processes. PostgreSQL takes `concurrency` at once.
    func register(_ names: [String], concurrency: Int = 16) async throws {
        guard !names.isEmpty else { return }
        let administration: any SyncStoreAdministration = switch self {
        case .files(let directory): FilesStoreAdministration(dataDirectory: directory)
        case .postgres(let url):
            PostgresStore(location: try PostgresLocation(url: url), maximumConnections: concurrency,
                          logger: Logger(label: "load", factory: { _ in SwiftLogNoOpLogHandler() }))
        }
        let now = Int64(Date().timeIntervalSince1970 * 1_000)
        // The files store serialises writers on users.json's lock anyway: one at a time.
        let lanes = isFiles ? 1 : concurrency
        do {
            try await administration.whileRunning {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for lane in 0..<lanes {
                        group.addTask {
                            for index in stride(from: lane, to: names.count, by: lanes) {
                                try await administration.addUser(names[index], tokenHash: TokenHash.hex(UserStore.newToken()), now: now)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        } catch {
            throw LoadError.server("registering \(names.count) idle users failed: \(error)")
        }
    }
}
