import LedgerCore
import LedgerSync

/// Why a device could not use its keys (Schemas/encryption.md §11 "The client"): one sentence for
/// people, and a cause to match on without parsing it, as `LedgerError` and `SealingError` are.
package struct EncryptionError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Cause: Sendable, Equatable {
        /// The key file is not the format encryption.md §11 gives, at `line` (1-based).
        case malformedKeyFile(line: Int)
        /// The key file can be read by the file's group or by others.
        case exposedKeyFile(mode: UInt32)
        /// A sealed record, or a key chain's entry, needs the key of an epoch this device lacks.
        case missingKey(epoch: UInt32)
        /// The server's key chain does not open under the key of the next epoch, or holds the
        /// key of another epoch than its own.
        case brokenChain(epoch: UInt32)
        /// A pulled sealed record does not open under its epoch's key (`reason` says which check
        /// of §3.3 it failed): damaged, forged, or sealed under another key of that epoch.
        case unopenable(device: DeviceID, seq: UInt64, reason: SealingError)
        /// A record of this device's log the sealer refuses (a knowledge mark too long to seal).
        case unsealable(device: DeviceID, seq: UInt64, reason: SealingError)
        /// A key file written readable by others: the file system given was not owner-only.
        case writtenExposed(mode: UInt32)
    }

    package var cause: Cause
    package var message: String
    /// The file the error is about, if any.
    package var file: String?

    package init(_ cause: Cause, _ message: String, file: String? = nil) {
        (self.cause, self.message, self.file) = (cause, message, file)
    }

    package var description: String { message }

    /// The same failure as the CLI reports every failure (its exit code comes from the category).
    package var ledgerError: LedgerError {
        let category: LedgerError.Category
        switch cause {
        case .malformedKeyFile, .brokenChain, .unopenable: category = .corruption
        // A key the device lacks is a credential it must be given (a link, the kit).
        case .exposedKeyFile, .writtenExposed, .missingKey: category = .permission
        case .unsealable: category = .badInput
        }
        // The message already names the file and the line.
        return LedgerError(category, message)
    }
}
