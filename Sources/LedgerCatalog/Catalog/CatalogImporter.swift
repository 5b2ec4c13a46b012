import CSQLite
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// A station carry-over the dump performed (domain.md §3.4): `target` received the completion
/// of `source`.
package struct CarryOver: Sendable, Equatable, CustomStringConvertible {
    package var target: UInt32
    package var source: UInt32
    /// The source as written in the dump (differs from `source` only for the 306029 typo fix).
    package var sourceInFile: UInt32
    /// `INSERT OR REPLACE` (302456) rather than `INSERT OR IGNORE`.
    package var replaces: Bool
    package var description: String { "\(target) ← \(source)" }
}

/// Applies a catalogue dump to `catalog.sqlite` inside one open transaction, so that the caller
/// can append the catalogue-version and carry-over events to the ledger first and commit only
/// then (a crash in between re-derives the same carry-overs, which no-op suppression drops).
///
/// The dump's `completions` statements run against a TEMP `completions` table seeded with the
/// projection (and an empty row for every station of the previous catalogue, as the original
/// apps' appendix left them), so their SQL decides exactly as the apps' did which carry-overs
/// fire. Each carry-over statement is evaluated once, the first time an import contains it,
/// and remembered in the `carryovers` table; later imports skip it.
package final class CatalogImporter {
    package let version: UInt32
    package let statementCount: Int
    package private(set) var carryOvers: [CarryOver] = []
    private let database: SQLiteDatabase
    private let finalPath: String
    private let workingPath: String
    private var open = true

    /// The typo of the dumps' v73 carry-over (domain.md §3.4): 306029 (富山) must come from
    /// 204291 (富山, JR西日本), as the iOS app has it, not 204391 (市川大門).
    package static let sourceFixes: [UInt32: (wrong: UInt32, right: UInt32)] = [306029: (204391, 204291)]

    /// Runs every statement; throws (rolling back and deleting any new file) on the first error,
    /// with the statement's line number.
    package init(
        ledgerDirectory: String, file: String, statements: [DumpStatement], version: UInt32,
        projection: CompletionsProjection
    ) throws {
        self.version = version
        statementCount = statements.count
        finalPath = LedgerFiles.path(LedgerFiles.catalog, in: ledgerDirectory)
        let isNew = access(finalPath, F_OK) != 0
        workingPath = isNew ? finalPath + ".importing" : finalPath
        if isNew { unlink(workingPath); unlink(workingPath + "-journal") }
        database = try SQLiteDatabase(path: workingPath, mode: .readWriteCreate)
        do {
            let applied = try database.userVersion()
            guard applied <= Int64(version) else {
                throw LedgerError(.badInput, "catalogue version \(version) is older than the applied version \(applied); catalogues only move forward")
            }
            try database.execute("PRAGMA temp_store = MEMORY")
            try database.execute("BEGIN IMMEDIATE")
            try prepareBookkeeping(projection: projection)
            try run(statements, file: file)
            try database.setUserVersion(Int64(version))
        } catch {
            abort()
            throw error
        }
    }

    deinit { if open { abort() } }

    private func prepareBookkeeping(projection: CompletionsProjection) throws {
        try database.execute("""
            CREATE TABLE IF NOT EXISTS carryovers (target INTEGER NOT NULL, source INTEGER NOT NULL, \
            applied_source INTEGER NOT NULL, version INTEGER NOT NULL, fired INTEGER NOT NULL, PRIMARY KEY (target, source));
            CREATE TEMP TABLE completions ("s_id" INTEGER PRIMARY KEY  NOT NULL ,"comp_date" INTEGER NOT NULL  DEFAULT (0) ,"update_date" INTEGER NOT NULL  DEFAULT (0) ,"memo" TEXT);
            """)
        if try database.tableExists("stations") {
            try database.execute("INSERT OR IGNORE INTO temp.completions SELECT s_id, 0, 0, '' FROM main.stations")
        }
        let seed = try database.prepare("INSERT OR REPLACE INTO temp.completions VALUES (?, ?, ?, ?)")
        for (station, row) in projection.sortedRows() {
            seed.reset()
            try seed.bind(1, Int64(station))
            try seed.bind(2, Int64(row.compDate))
            try seed.bind(3, row.updateDate)
            try seed.bind(4, row.memo)
            try seed.step()
        }
        var seen = Set<String>()
        let done = try database.prepare("SELECT target, source FROM carryovers")
        while try done.step() { seen.insert("\(done.int64(0))<\(done.int64(1))") }
        evaluated = seen
    }

    private var evaluated: Set<String> = []

    private func run(_ statements: [DumpStatement], file: String) throws {
        let carryOverPattern = try Regex(
            #"^\s*INSERT\s+OR\s+(IGNORE|REPLACE)\s+INTO\s+"?completions"?\s+SELECT\s+(\d+)\s*,.*FROM\s+"?completions"?\s+WHERE\s+s_id\s*=\s*(\d+)\s+AND\s+comp_date\s*>\s*0\s*;?\s*$"#
        ).ignoresCase().dotMatchesNewlines()
        let createCompletions = try Regex(#"^\s*CREATE\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?"?completions"?\s*\("#).ignoresCase()
        let record = try database.prepare("INSERT OR REPLACE INTO carryovers VALUES (?, ?, ?, ?, ?)")
        sqlite3_set_authorizer(database.handle, CatalogImporter.authorize, nil)
        defer { sqlite3_set_authorizer(database.handle, nil, nil) }

        for statement in statements {
            var sql = statement.sql
            var carry: CarryOver?
            if sql.lowercased().contains("completions") {
                // The projection is the completions table; the catalogue file gets none.
                if sql.firstMatch(of: createCompletions) != nil { continue }
                if let match = try carryOverPattern.wholeMatch(in: sql),
                   let target = UInt32(match.output[2].substring ?? ""),
                   let source = UInt32(match.output[3].substring ?? "") {
                    if evaluated.contains("\(target)<\(source)") { continue }
                    var applied = source
                    if let fix = Self.sourceFixes[target], fix.wrong == source {
                        applied = fix.right
                        sql = sql.replacingFirst("= \(source)", with: "= \(applied)")
                    }
                    let replaces = (match.output[1].substring ?? "").uppercased() == "REPLACE"
                    carry = CarryOver(target: target, source: applied, sourceInFile: source, replaces: replaces)
                }
            }
            try execute(sql, line: statement.line, file: file)
            if let carry {
                let fired = database.changes > 0
                if fired { carryOvers.append(carry) }
                evaluated.insert("\(carry.target)<\(carry.sourceInFile)")
                record.reset()
                try record.bind(1, Int64(carry.target))
                try record.bind(2, Int64(carry.sourceInFile))
                try record.bind(3, Int64(carry.source))
                try record.bind(4, Int64(version))
                try record.bind(5, fired ? 1 : 0)
                try record.step()
            }
        }
    }

    private func execute(_ sql: String, line: Int, file: String) throws {
        do {
            let prepared = try SQLiteStatement.prepareInput(database, sql)
            if prepared.isEmpty { return }
            // The apps ignore text after the first statement; a second statement there is
            // almost certainly a damaged dump, so refuse it instead of dropping it silently.
            let rest = prepared.tail.trimmingSpaces
            if !rest.isEmpty, !rest.hasPrefix("--"), !(try SQLiteStatement.prepareInput(database, rest).isEmpty) {
                throw LedgerError(.badInput, "a second statement follows the first on one line")
            }
            while try prepared.step(category: .badInput) {}
        } catch let error as LedgerError {
            var message = error.message
            if message.hasPrefix("SQLite: ") { message = "the catalogue statement failed: " + message.dropFirst(8) }
            throw LedgerError(.badInput, message, file: file, line: line)
        }
    }

    /// Refuses statements a catalogue dump has no business running: attaching files, pragmas,
    /// and transaction control (the whole import is one transaction).
    private static let authorize: @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        UnsafePointer<CChar>?, UnsafePointer<CChar>?
    ) -> Int32 = { _, action, _, _, _, _ in
        switch action {
        case SQLITE_ATTACH, SQLITE_DETACH, SQLITE_PRAGMA, SQLITE_TRANSACTION, SQLITE_SAVEPOINT: return SQLITE_DENY
        default: return SQLITE_OK
        }
    }

    /// Commits the catalogue (after the ledger holds the events) and puts a new file in place.
    package func commit() throws {
        try database.execute("DROP TABLE temp.completions; COMMIT")
        database.close()
        open = false
        if workingPath != finalPath {
            guard rename(workingPath, finalPath) == 0 else {
                unlink(workingPath)
                throw LedgerError(.io, "cannot put the catalogue in place: errno \(errno)", file: finalPath)
            }
        }
    }

    /// Rolls everything back; a catalogue file created by this import is removed.
    package func abort() {
        guard open else { return }
        open = false
        try? database.execute("ROLLBACK")
        database.close()
        if workingPath != finalPath {
            unlink(workingPath)
            unlink(workingPath + "-journal")
        }
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }

    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}
