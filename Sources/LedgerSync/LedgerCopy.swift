import LedgerCore

/// Two ledger directories that are copies of one ledger (Schemas/merge.md §10.1): both record
/// events as the same local device, and they hold different events under one of its ids. `merge`
/// tells this apart from a corrupt or forged replica, and `reidentify` mends the copy locally as
/// `sync` does with a server: the same `DeviceReidentification`, with the original ledger
/// directory in the server's place.
package enum LedgerCopy {
    /// `error`, or, when it is `merge`'s refusal of an event of the device both ledgers hold as
    /// their local device, the sentence that says so and how to mend it.
    package static func mergeRefusal(_ error: LedgerError, this: Ledger, other: Ledger, otherPath: String) -> LedgerError {
        guard case .differingEvent(let id)? = error.cause, id.device == this.localDevice,
              id.device == other.localDevice else { return error }
        return LedgerError(.conflict, "\(otherPath) and \(this.directory) are copies of one ledger (both record events as device \(id.device), and its event #\(id.seq) differs between them); run 'oritsubushi reidentify --from \(this.directory)' in \(otherPath), then merge again; nothing was written",
                           cause: error.cause)
    }

    /// The first seq at which the local device's events differ between `copy` and `original`
    /// (compared by fingerprint in one scan of each). Refused (exit 65) when `original` is not a
    /// copy of the same device, or when no event they both hold differs.
    package static func firstDivergence(of copy: Ledger, from original: Ledger, originalPath: String) throws -> UInt64 {
        let device = copy.localDevice
        guard original.localDevice == device else {
            throw LedgerError(.badInput, "\(originalPath) records events as device \(original.localDevice), not as this ledger's device \(device): it is not a copy of this ledger; nothing was changed")
        }
        let shared = min(copy.versionVector[device] ?? 0, original.versionVector[device] ?? 0)
        var theirs: [UInt64: UInt64] = [:]
        theirs.reserveCapacity(Int(shared))
        try original.forEachRecord { view, _ in
            guard view.hasEventID, view.device == device, view.seq <= shared else { return }
            theirs[view.seq] = RecordFingerprint.of(view)
        }
        guard let first = try firstDiffering(device, in: copy, from: theirs) else {
            throw LedgerError(.badInput, "this ledger's events of device \(device) match those of \(originalPath): nothing to re-identify; nothing was changed")
        }
        return first
    }

    /// The lowest seq of `device`'s events in `ledger` whose fingerprint differs from the one
    /// `theirs` holds for that seq (seqs `theirs` lacks are not compared), `nil` when none does.
    package static func firstDiffering(_ device: DeviceID, in ledger: Ledger, from theirs: [UInt64: UInt64]) throws -> UInt64? {
        var first: UInt64?
        try ledger.forEachRecord { view, _ in
            guard view.hasEventID, view.device == device, let print = theirs[view.seq],
                  print != RecordFingerprint.of(view), view.seq < first ?? .max else { return }
            first = view.seq
        }
        return first
    }
}
