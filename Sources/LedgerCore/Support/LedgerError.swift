/// Every failure the ledger reports: a category (which the CLI maps to its exit code, in
/// `ExitStatus`), one sentence for people, and where it happened.
package struct LedgerError: Error, Sendable, CustomStringConvertible {
    package enum Category: Sendable, Equatable {
        /// Bad arguments (exit 64).
        case usage
        /// Bad input data: an invalid date, an unknown station, a malformed file (exit 65).
        case badInput
        /// The ledger's own files are corrupt (exit 65).
        case corruption
        /// No ledger where one was expected (exit 66).
        case missingLedger
        /// A system call failed (exit 74).
        case io
        /// Another process holds the ledger (exit 75).
        case locked
        /// A merge or sync partner's data cannot be accepted (exit 65).
        case conflict
        /// An unreachable or misbehaving peer (exit 69).
        case unavailable
        /// Refused credentials (exit 77).
        case permission
    }

    /// The lower-level failure behind an error, kept so callers can tell causes apart without
    /// parsing messages.
    package enum Cause: Sendable, Equatable {
        /// A system call's errno.
        case errno(Int32)
        /// An SQLite (extended) result code.
        case sqlite(Int32)
        /// One event id held with two different contents: two copies of one ledger parted there
        /// (Schemas/merge.md §10). The sync server answers it as a fork.
        case differingEvent(EventID)
        /// A repair's sources lack events the damaged data held (`server repair --accept-loss`
        /// can go ahead without them).
        case missingEvents
        /// Records dated more than the clock lead ahead of the receiver's clock (Schemas/merge.md
        /// §2): the sender's clock is wrong (`oritsubushi reissue`), or the receiver's.
        case clockAhead
        /// A received record that is not a valid record (its wire form or its content): the
        /// admission's first check (Schemas/merge.md §2.1, `malformed-record`).
        case malformedRecord
        /// One new event id received twice with two contents (`differing-duplicate`).
        case differingWithin(EventID)
        /// A device's received seqs do not continue its held ones (`seq-gap`).
        case seqGap(SeqGap)
        /// Records dated before 2000-01-01, which no device's clock reads (`before-2000`).
        case beforeEarliest
        /// A received station edit that is not valid (`invalid-edit`).
        case invalidEdit(EventID)
        /// A received completion date after the latest day in Japan (`future-date`).
        case futureDate(EventID)
        /// A received station edit for a station the catalogue does not know (`unknown-station`).
        case unknownStation(EventID)
        /// A new sealed record under a key epoch older than the encrypted account's (`stale-epoch`,
        /// Schemas/encryption.md §10): the device missed a rotation.
        case staleEpoch(current: UInt32, found: UInt32)
        /// A sealed record under a key epoch the encrypted account does not have (`unknown-epoch`).
        case unknownEpoch(current: UInt32, found: UInt32)
        /// A server answered 404: the path is not one it serves (an older server's API).
        case notServed
        /// `server repair` of an end-to-end encrypted account was given a device's plaintext
        /// ledger (Schemas/encryption.md §11, "Repairing a sealed log"): the CLI seals it with
        /// the key that ledger holds, if it holds one, and repairs again.
        case plaintextReplica(String)
    }

    package var category: Category
    package var message: String
    /// The system or SQLite failure behind this error, if any.
    package var cause: Cause?
    /// A file the error is about, if any.
    package var file: String?
    /// A byte offset inside `file`, if known.
    package var offset: Int?
    /// A line number inside `file`, if known.
    package var line: Int?

    package init(_ category: Category, _ message: String, file: String? = nil, offset: Int? = nil, line: Int? = nil,
                 cause: Cause? = nil) {
        (self.category, self.message, self.cause, self.file) = (category, message, cause, file)
        (self.offset, self.line) = (offset, line)
    }

    /// One sentence: the message, then the location.
    package var description: String {
        var text = message
        if let file {
            text += " (\(file)"
            if let line { text += ", line \(line)" }
            if let offset { text += ", byte offset \(offset)" }
            text += ")"
        } else if let line {
            text += " (line \(line))"
        }
        return text
    }

    package static func corrupt(_ message: String, file: String, offset: Int) -> LedgerError {
        LedgerError(.corruption, message, file: file, offset: offset)
    }
}
