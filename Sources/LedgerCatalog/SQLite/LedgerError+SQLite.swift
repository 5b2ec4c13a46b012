import GRDB
import LedgerCore

extension LedgerError {
    /// The one mapping from an SQLite failure to a ledger error: SQLite's own sentence, its
    /// extended result code as the cause. `category` says whether the failure is the caller's bad
    /// input (a catalogue dump line, exit 65) or a problem with the database file (exit 74).
    package init(sqlite error: DatabaseError, category: Category = .io, file: String? = nil) {
        self.init(category, "SQLite: \(error.message ?? "\(error.resultCode)")", file: file,
                  cause: .sqlite(error.extendedResultCode.rawValue))
    }
}
