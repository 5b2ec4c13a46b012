import LedgerCore
import LedgerSync

extension SyncConnection {
    /// Every record the server holds for this token's user, page by page, as if nothing were
    /// held here (the source of `verify --repair --server`).
    package func pullAll(pageSize: Int = 2_000) async throws -> [LedgerRecord] {
        var records: [LedgerRecord] = []
        var cursor: UInt64?
        while true {
            let page = try await pull(PullRequest(have: [:], cursor: cursor, limit: pageSize))
            for wire in page.records { records.append(try wire.record()) }
            cursor = page.cursor
            if !page.more { return records }
        }
    }
}
