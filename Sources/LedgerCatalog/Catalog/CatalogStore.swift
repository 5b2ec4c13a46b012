import Foundation
import GRDB
import LedgerCore

/// Read access to the catalogue database of a ledger (`catalog.sqlite`). Opening never creates
/// the file: a ledger without a catalogue simply has none (`open` returns `nil`).
package final class CatalogStore {
    private let database: DatabaseQueue
    /// The file, for error messages.
    package let path: String
    /// The applied catalogue version (`PRAGMA user_version`, as the iOS app keeps it).
    package let version: Int64

    private init(database: DatabaseQueue, path: String) throws {
        self.database = database
        self.path = path
        version = try SQLiteFile.mapped(file: path) { try database.inDatabase { try Int64.fetchOne($0, sql: "PRAGMA user_version") ?? 0 } }
    }

    package static func exists(inLedger directory: String, fileSystem: any FileSystem = PosixFileSystem()) -> Bool {
        fileSystem.fileExists(LedgerFiles.path(LedgerFiles.catalog, in: directory))
    }

    /// Opens the catalogue read-only, or returns `nil` when none was imported yet.
    package static func open(ledgerDirectory: String, fileSystem: any FileSystem = PosixFileSystem()) throws -> CatalogStore? {
        guard exists(inLedger: ledgerDirectory, fileSystem: fileSystem) else { return nil }
        let path = LedgerFiles.path(LedgerFiles.catalog, in: ledgerDirectory)
        let database = try SQLiteFile.openForReading(path, fileSystem: fileSystem)
        guard try SQLiteFile.mapped(file: path, { try database.inDatabase { try $0.tableExists("stations") } }) else {
            throw LedgerError(.corruption, "the catalogue database has no stations table", file: path)
        }
        return try CatalogStore(database: database, path: path)
    }

    /// The bundled catalogue (`BundledCatalog`) in an in-memory database, for answers that need
    /// no ledger (the sync server's `GET /v1/catalog`). The dump's completions statements are
    /// left out: a catalogue alone has no completions (Schemas/projection.md, "Carry-overs").
    package static func bundled() throws -> CatalogStore {
        let path = "the bundled catalogue \(BundledCatalog.version)"
        let database = try SQLiteFile.inMemory(file: path)
        try SQLiteFile.mapped(file: path) {
            try database.write { db in
                for statement in try BundledCatalog.statements() where !statement.sql.lowercased().contains("completions") {
                    try db.execute(sql: statement.sql)
                }
                try db.execute(sql: "PRAGMA user_version = \(BundledCatalog.version)")
            }
        }
        return try CatalogStore(database: database, path: path)
    }

    /// The catalogue of `ledger`, read through its file system.
    package static func open(_ ledger: Ledger) throws -> CatalogStore? {
        try open(ledgerDirectory: ledger.directory, fileSystem: ledger.fileSystem)
    }

    /// Releases the connection (it is also released when the store is).
    package func close() {
        try? database.close()
    }

    /// Runs a read, mapping SQLite's errors (internal: `StationQuery` reads through it).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try SQLiteFile.mapped(file: path) { try database.inDatabase(body) }
    }

    /// Whether `station` is a catalogue station (enabled or not: disabled stations keep their
    /// history and can still be edited).
    package func contains(_ station: UInt32) throws -> Bool {
        try read { try Bool.fetchOne($0, sql: "SELECT 1 FROM stations WHERE s_id = ?", arguments: [Int64(station)]) ?? false }
    }

    /// Throws the documented "unknown station" error (exit 65) unless `station` is catalogued.
    package func requireStation(_ station: UInt32) throws {
        guard try contains(station) else {
            throw LedgerError(.badInput, "station \(station) is not in the station catalogue (version \(version))")
        }
    }

    package func loadSnapshot() throws -> CatalogSnapshot {
        var snapshot = CatalogSnapshot(version: version)
        try read { db in
            for row in try Row.fetchAll(db, sql: "SELECT o_id, operator, type, enabled FROM operators ORDER BY o_id") {
                snapshot.operators.append(CatalogOperator(id: row.integer("o_id"), name: row.text("operator"),
                                                          type: row.integer("type"), enabled: row.integer("enabled") == 1))
            }
            for row in try Row.fetchAll(db, sql: "SELECT l_id, line, o_id, enabled, l_type FROM lines ORDER BY l_id") {
                snapshot.lines.append(CatalogLine(id: row.integer("l_id"), name: row.text("line"), operatorID: row.integer("o_id"),
                                                  enabled: row.integer("enabled") == 1,
                                                  lineType: row.isNull("l_type") ? nil : row.integer("l_type")))
            }
            let stations = try Row.fetchCursor(
                db, sql: "SELECT s_id, station, yomi, wiki, pref, address, lat, lng, o_id, enabled, weight FROM stations ORDER BY s_id")
            while let row = try stations.next() {
                let id = row.integer("s_id")
                guard id > 0, id <= Int64(UInt32.max) else { continue }
                snapshot.stations.append(CatalogStation(
                    id: UInt32(id), name: row.text("station"), yomi: row.text("yomi"), wiki: row.text("wiki"),
                    pref: row.integer("pref"), address: row.text("address"), lat: row.integer("lat"), lng: row.integer("lng"),
                    operatorID: row.integer("o_id"), enabled: row.integer("enabled") == 1, weight: row.integer("weight")))
            }
            guard try db.tableExists("stations_lines") else { return }
            let members = try Row.fetchCursor(db, sql: "SELECT l_id, s_id, s_sort FROM stations_lines ORDER BY l_id, s_sort, s_id")
            while let row = try members.next() {
                let id = row.integer("s_id")
                guard id > 0, id <= Int64(UInt32.max) else { continue }
                snapshot.memberships.append(CatalogMembership(lineID: row.integer("l_id"), stationID: UInt32(id), sort: row.integer("s_sort")))
            }
        }
        snapshot.index()
        return snapshot
    }

    package enum SearchField: String, Sendable, CaseIterable { case name, yomi, any, line }

    /// The original text search (Schemas/domain-rules.md §24), as `StationQuery` runs it: station ids without
    /// duplicates, in `s_id` order.
    package func find(_ word: String, by field: SearchField, partial: Bool, includeDisabled: Bool) throws -> [UInt32] {
        try stations(StationQuery(text: word, field: field, partial: partial, includeDisabled: includeDisabled))
    }
}
