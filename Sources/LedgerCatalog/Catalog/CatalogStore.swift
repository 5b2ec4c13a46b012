import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// Read access to the catalogue database of a ledger (`catalog.sqlite`). Opening never creates
/// the file: a ledger without a catalogue simply has none (`open` returns `nil`).
package final class CatalogStore {
    package let database: SQLiteDatabase
    /// The applied catalogue version (`PRAGMA user_version`, as the iOS app keeps it).
    package let version: Int64

    private init(database: SQLiteDatabase) throws {
        self.database = database
        version = try database.userVersion()
    }

    package static func exists(inLedger directory: String) -> Bool {
        access(LedgerFiles.path(LedgerFiles.catalog, in: directory), F_OK) == 0
    }

    /// Opens the catalogue read-only, or returns `nil` when none was imported yet.
    package static func open(ledgerDirectory: String) throws -> CatalogStore? {
        guard exists(inLedger: ledgerDirectory) else { return nil }
        let database = try SQLiteDatabase(path: LedgerFiles.path(LedgerFiles.catalog, in: ledgerDirectory), mode: .readOnly)
        guard try database.tableExists("stations") else {
            throw LedgerError(.corruption, "the catalogue database has no stations table", file: database.path)
        }
        return try CatalogStore(database: database)
    }

    /// Whether `station` is a catalogue station (enabled or not: disabled stations keep their
    /// history and can still be edited).
    package func contains(_ station: UInt32) throws -> Bool {
        let statement = try database.prepare("SELECT 1 FROM stations WHERE s_id = ?")
        try statement.bind(1, Int64(station))
        return try statement.step()
    }

    /// Throws the documented "unknown station" error (exit 65) unless `station` is catalogued.
    package func requireStation(_ station: UInt32) throws {
        guard try contains(station) else {
            throw LedgerError(.badInput, "station \(station) is not in the station catalogue (version \(version))")
        }
    }

    package func loadSnapshot() throws -> CatalogSnapshot {
        var snapshot = CatalogSnapshot(version: version)
        let operators = try database.prepare("SELECT o_id, operator, type, enabled FROM operators ORDER BY o_id")
        while try operators.step() {
            snapshot.operators.append(CatalogOperator(id: operators.int64(0), name: operators.string(1),
                                                      type: operators.int64(2), enabled: operators.int64(3) == 1))
        }
        let lines = try database.prepare("SELECT l_id, line, o_id, enabled, l_type FROM lines ORDER BY l_id")
        while try lines.step() {
            snapshot.lines.append(CatalogLine(id: lines.int64(0), name: lines.string(1), operatorID: lines.int64(2),
                                              enabled: lines.int64(3) == 1, lineType: lines.isNull(4) ? nil : lines.int64(4)))
        }
        let stations = try database.prepare(
            "SELECT s_id, station, yomi, wiki, pref, address, lat, lng, o_id, enabled, weight FROM stations ORDER BY s_id")
        while try stations.step() {
            let id = stations.int64(0)
            guard id > 0, id <= Int64(UInt32.max) else { continue }
            snapshot.stations.append(CatalogStation(
                id: UInt32(id), name: stations.string(1), yomi: stations.string(2), wiki: stations.string(3),
                pref: stations.int64(4), address: stations.string(5), lat: stations.int64(6), lng: stations.int64(7),
                operatorID: stations.int64(8), enabled: stations.int64(9) == 1, weight: stations.int64(10)))
        }
        if try database.tableExists("stations_lines") {
            let members = try database.prepare("SELECT l_id, s_id, s_sort FROM stations_lines ORDER BY l_id, s_sort, s_id")
            while try members.step() {
                let id = members.int64(1)
                guard id > 0, id <= Int64(UInt32.max) else { continue }
                snapshot.memberships.append(CatalogMembership(lineID: members.int64(0), stationID: UInt32(id), sort: members.int64(2)))
            }
        }
        snapshot.index()
        return snapshot
    }

    package enum SearchField: String, Sendable, CaseIterable { case name, yomi, line }

    /// The original search filters (domain.md §5): `LIKE 'word%'` or `LIKE '%word%'` on the
    /// name, the reading, or an enabled line's name; `%`, `_` and `*` in the word are escaped
    /// with `*`. Returns station ids without duplicates, in `s_id` order.
    package func find(_ word: String, by field: SearchField, partial: Bool, includeDisabled: Bool) throws -> [UInt32] {
        var escaped = ""
        for c in word {
            if c == "%" || c == "_" || c == "*" { escaped.append("*") }
            escaped.append(c)
        }
        let pattern = (partial ? "%" : "") + escaped + "%"
        let enabled = includeDisabled ? "" : " AND s.enabled = 1"
        let sql: String
        switch field {
        case .name: sql = "SELECT s.s_id FROM stations s WHERE s.station LIKE ?1 ESCAPE '*'\(enabled) ORDER BY s.s_id"
        case .yomi: sql = "SELECT s.s_id FROM stations s WHERE s.yomi LIKE ?1 ESCAPE '*'\(enabled) ORDER BY s.s_id"
        case .line:
            sql = """
                SELECT DISTINCT s.s_id FROM stations s JOIN stations_lines sl ON sl.s_id = s.s_id \
                JOIN lines l ON l.l_id = sl.l_id WHERE l.enabled = 1 AND l.line LIKE ?1 ESCAPE '*'\(enabled) ORDER BY s.s_id
                """
        }
        let statement = try database.prepare(sql)
        try statement.bind(1, pattern)
        var ids: [UInt32] = []
        while try statement.step() { ids.append(UInt32(truncatingIfNeeded: statement.int64(0))) }
        return ids
    }
}
