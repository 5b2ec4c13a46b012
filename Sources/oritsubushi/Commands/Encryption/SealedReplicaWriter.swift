import Foundation
import LedgerCore
import LedgerSync
import SyncClient
import SyncServer

/// A sealed copy of a device's ledger (Schemas/encryption.md §11, "Repairing a sealed log"):
/// every event and device name sealed on its own (kinds 5 and 6, never a run, so that it fills
/// any range a damaged log lost), under the newest key the device holds, written as a new sealed
/// ledger directory that holds neither the key nor any plaintext.
/// `encryption replica` writes one for the operator; `server repair`, given a device's ledger
/// that holds its key, writes one to a temporary directory and repairs from it.
enum SealedReplicaWriter {
    struct Written {
        var events: Int
        var names: Int
        var key: DataKey
    }

    /// Writes `ledger`'s sealed copy to `directory` (which must not exist) under `ring`'s newest key.
    static func write(_ ledger: Ledger, ring: KeyRing, to directory: String) throws -> Written {
        let key = ring.current
        // Each event alone: a replica fills whatever range a damaged log lost, however the runs
        // the log held were cut (Schemas/encryption.md §11, "Repairing a sealed log").
        let sealed = try SyncSealing.seal(try ConversionUpload.sealedCopyRecords(of: ledger), with: key, asRuns: false)
        let events = try LedgerExport.writeSealed(sealed, to: directory, ownerName: "sealed replica", clock: try Environment.clock())
        return Written(events: events, names: ledger.deviceNames.count, key: key)
    }

    /// For `server repair` of an encrypted account given device ledgers: each replica that is a
    /// plaintext ledger holding a key file is sealed into a new directory under `scratch`; the
    /// others stay as given. Nil when no replica holds a key (the refusal then stands).
    static func sealingKeyedReplicas(_ replicas: [String], under scratch: String) throws -> [String]? {
        var result: [String] = []
        var sealedAny = false
        for (index, replica) in replicas.enumerated() {
            guard (try? LedgerMetadata.recordForm(ofLedgerAt: replica, fileSystem: PosixFileSystem())) == .plain,
                  let ring = try KeyRing.load(ledgerDirectory: replica, fileSystem: PosixFileSystem()) else {
                result.append(replica)
                continue
            }
            let ledger = try Ledger.open(directory: replica, clock: try Environment.clock(), lock: .init(mode: .shared))
            defer { ledger.close() }
            let sealed = Path.join(scratch, "replica-\(index + 1)")
            let written = try write(ledger, ring: ring, to: sealed)
            print("sealed the replica \(replica) with the key it holds (\(Plural.count(written.events, "event")), key epoch \(written.key.epoch)); the key is not kept")
            result.append(sealed)
            sealedAny = true
        }
        return sealedAny ? result : nil
    }
}
