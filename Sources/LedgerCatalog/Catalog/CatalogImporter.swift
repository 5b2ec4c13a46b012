import GRDB
import LedgerCore

/// A station carry-over the dump performed (Schemas/domain-rules.md §16): `target` received the completion
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

/// Applies a catalogue dump to a copy of `catalog.sqlite` in memory, so that the caller can
/// append the catalogue-version and carry-over events to the ledger first and only then put the
/// new catalogue in place (`commit`); a crash in between leaves the old file, and the next import
/// re-derives the same carry-overs, which no-op suppression drops.
///
/// The dump's `completions` statements run against a TEMP `completions` table seeded with the
/// projection (and an empty row for every station of the previous catalogue, as the original
/// apps' appendix left them), so their SQL decides exactly as the apps' did which carry-overs
/// fire now (`carryOvers`, reported). Each carry-over statement is recorded once in the
/// `carryovers` table, the first time an import contains it; the events come from
/// `CarryOverPlanner`, which evaluates every recorded carry-over whenever events arrive.
package final class CatalogImporter {
    package let version: UInt32
    package let statementCount: Int
    /// The carry-overs this import's statements fired (what the dump's SQL decided on this data).
    package private(set) var carryOvers: [CarryOver] = []
    /// Every carry-over the catalogue records after this import, of every version: what
    /// `CarryOverPlanner` evaluates.
    package private(set) var recorded: [CarryOver] = []
    private let database: DatabaseQueue
    private let finalPath: String
    private let fileSystem: any FileSystem
    private var open = true

    /// The typo of the dumps' v73 carry-over (Schemas/domain-rules.md §16): 306029 (富山) must come from
    /// 204291 (富山, JR西日本), as the iOS app has it, not 204391 (市川大門).
    package static let sourceFixes: [UInt32: (wrong: UInt32, right: UInt32)] = [306029: (204391, 204291)]

    /// Statements a catalogue dump has no business running: attaching or writing other files
    /// (`VACUUM INTO`), pragmas, and transaction control (the whole import is one unit). GRDB
    /// owns the connection's SQLite authorizer, so they are recognised by their leading keyword.
    static let refusedKeywords: Set<String> = ["ATTACH", "DETACH", "PRAGMA", "BEGIN", "COMMIT", "END", "ROLLBACK",
                                               "SAVEPOINT", "RELEASE", "VACUUM"]

    /// Named, versioned migrations of the catalogue's own bookkeeping (the catalogue tables come
    /// from the dumps). The first is what earlier versions created; `IF NOT EXISTS` makes it a
    /// no-op on their files.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: carry-over bookkeeping") { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS carryovers (target INTEGER NOT NULL, source INTEGER NOT NULL, \
                applied_source INTEGER NOT NULL, version INTEGER NOT NULL, fired INTEGER NOT NULL, PRIMARY KEY (target, source))
                """)
        }
        return migrator
    }()

    /// Runs every statement; throws on the first error, with the statement's line number, and
    /// leaves the catalogue file as it was.
    package init(
        ledgerDirectory: String, file: String, statements: [DumpStatement], version: UInt32,
        projection: CompletionsProjection, fileSystem: any FileSystem = PosixFileSystem()
    ) throws {
        self.version = version
        self.fileSystem = fileSystem
        statementCount = statements.count
        finalPath = LedgerFiles.path(LedgerFiles.catalog, in: ledgerDirectory)
        if fileSystem.fileExists(finalPath) {
            SQLiteFile.rollBackHotJournal(finalPath, fileSystem: fileSystem)
            database = try SQLiteFile.inMemory(fileSystem.readFile(finalPath), file: finalPath)
        } else {
            database = try SQLiteFile.inMemory()
        }
        try SQLiteFile.mapped(file: finalPath) {
            let applied = try database.inDatabase { try Int64.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
            guard applied <= Int64(version) else {
                throw LedgerError(.badInput, "catalogue version \(version) is older than the applied version \(applied); catalogues only move forward")
            }
            try Self.migrator.migrate(database)
        }
        try database.inDatabase { db in
            try SQLiteFile.mapped(file: finalPath) { try prepareBookkeeping(projection: projection, db) }
            try run(statements, file: file, db)
            try SQLiteFile.mapped(file: finalPath) {
                try db.execute(sql: "PRAGMA user_version = \(version)")
                recorded = try CarryOverPlanner.recorded(db)
            }
        }
    }

    private func prepareBookkeeping(projection: CompletionsProjection, _ db: Database) throws {
        try db.execute(sql: CompletionsTable.create("CREATE TEMP TABLE"))
        if try db.tableExists("stations") {
            try db.execute(sql: "INSERT OR IGNORE INTO temp.completions SELECT s_id, 0, 0, '' FROM main.stations")
        }
        try CompletionsTable.insert(projection.sortedRows().lazy.map { CompletionRow($0.station, $0.row) },
                                    into: "temp.completions", db)
        for row in try Row.fetchAll(db, sql: "SELECT target, source FROM carryovers") {
            evaluated.insert("\(row.integer("target"))<\(row.integer("source"))")
        }
    }

    private var evaluated: Set<String> = []

    private func run(_ statements: [DumpStatement], file: String, _ db: Database) throws {
        let carryOverPattern = try Regex(
            #"^\s*INSERT\s+OR\s+(IGNORE|REPLACE)\s+INTO\s+"?completions"?\s+SELECT\s+(\d+)\s*,.*FROM\s+"?completions"?\s+WHERE\s+s_id\s*=\s*(\d+)\s+AND\s+comp_date\s*>\s*0\s*;?\s*$"#
        ).ignoresCase().dotMatchesNewlines()
        let createCompletions = try Regex(#"^\s*CREATE\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?"?completions"?\s*\("#).ignoresCase()

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
            try execute(sql, line: statement.line, file: file, db)
            if let carry {
                let fired = db.changesCount > 0
                if fired { carryOvers.append(carry) }
                evaluated.insert("\(carry.target)<\(carry.sourceInFile)")
                try SQLiteFile.mapped(file: finalPath) {
                    try db.execute(sql: "INSERT OR REPLACE INTO carryovers VALUES (?, ?, ?, ?, ?)", arguments: [
                        Int64(carry.target), Int64(carry.sourceInFile), Int64(carry.source), Int64(version), fired ? 1 : 0,
                    ])
                }
            }
        }
    }

    /// Compiles and runs one dump statement through GRDB. Measured against raw `sqlite3_prepare`
    /// and `step` (release, 22,500 one-line INSERTs): 0.097 s vs 0.081 s, about 16 ms per full
    /// import; kept, because GRDB's statement cursor is what finds a second statement on a line.
    private func execute(_ sql: String, line: Int, file: String, _ db: Database) throws {
        do {
            let statements = try db.allStatements(sql: sql)
            guard let first = try statements.next() else { return }
            if Self.refusedKeywords.contains(Self.leadingKeyword(first.sql)) {
                throw LedgerError(.badInput, "the catalogue statement failed: not authorized")
            }
            // The apps ignore text after the first statement; a second statement there is
            // almost certainly a damaged dump, so refuse it instead of dropping it silently.
            if try statements.next() != nil {
                throw LedgerError(.badInput, "a second statement follows the first on one line")
            }
            try first.execute()
        } catch let error as DatabaseError {
            throw LedgerError(.badInput, "the catalogue statement failed: \(error.message ?? "\(error.resultCode)")",
                              file: file, line: line, cause: .sqlite(error.extendedResultCode.rawValue))
        } catch let error as LedgerError {
            throw LedgerError(.badInput, error.message, file: file, line: line)
        }
    }

    /// The first word of a statement, past spaces, comments and `EXPLAIN [QUERY PLAN]`.
    static func leadingKeyword(_ sql: String) -> String {
        var rest = Substring(sql)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*") {
                rest = rest.dropFirst(2)
                rest = rest.firstRange(of: "*/").map { rest[$0.upperBound...] } ?? ""
            } else {
                let word = rest.prefix(while: { $0.isLetter }).uppercased()
                guard word == "EXPLAIN" || word == "QUERY" || word == "PLAN" else { return word }
                rest = rest.dropFirst(word.count)
            }
        }
    }

    /// Puts the new catalogue in place (after the ledger holds the events): the same atomic
    /// replacement as the projection's, through the file system (`SQLiteFile.replace`).
    package func commit() throws {
        guard open else { return }
        open = false
        try SQLiteFile.replace(finalPath, with: database, fileSystem: fileSystem,
                               staleTemporaries: [finalPath + ".importing", finalPath + ".importing-journal"])
    }

    /// Drops the import; the catalogue file was never touched.
    package func abort() {
        open = false
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}
