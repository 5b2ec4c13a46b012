import LedgerCore
import LedgerSync

extension SyncSession {
    /// `run`, plus what a fork calls for (Schemas/merge.md §10). When the forked device is this
    /// ledger's own, the ledger is a copy: the first seq where its events differ from the
    /// server's is found, its events from there are moved to a new device id (keeping their hlc),
    /// the ledger is opened again and the sync carries on, pulling the server's version of the
    /// old id's events and pushing the new id's. A fork of another device means this ledger
    /// received a copy's events by `merge`: with `rehome` (`sync --rehome`) those events move
    /// to a new device id the same way and are pushed under it (nothing is lost; the server's
    /// version of the old id's events is pulled); without it the sync is refused
    /// (`SyncFork.refusal`, exit 65, naming `--rehome`). `open` opens the ledger directory
    /// (taking its lock); the returned ledger is the one the sync ended on, still open.
    package func run(opening open: () throws -> Ledger, derivedFiles: [String],
                     rehome: Bool = false) async throws -> (report: SyncReport, ledger: Ledger) {
        var ledger = try open()
        do {
            return (try await run(ledger), ledger)
        } catch let fork as SyncFork {
            guard fork.device == ledger.localDevice || rehome else {
                ledger.close()
                throw fork.refusal
            }
            let change: DeviceReidentification
            do {
                let first = try await firstDivergence(of: fork, in: ledger)
                change = try DeviceReidentification.rewrite(ledger, device: fork.device, from: first, stamping: .keep,
                                                            derivedFiles: derivedFiles)
            } catch {
                ledger.close()
                throw error
            }
            ledger.close()
            ledger = try open()
            do {
                var report = try await run(ledger)
                report.reidentified = change
                return (report, ledger)
            } catch let again as SyncFork {
                ledger.close()
                throw again.refusal
            } catch {
                ledger.close()
                throw error
            }
        } catch {
            ledger.close()
            throw error
        }
    }

    /// The first seq at which `fork.device`'s events differ between this ledger and the server:
    /// one pull with that device's `have` lowered to 0, so that the server sends every event it
    /// holds of it (and only what this ledger lacks of the others), compared by fingerprint in
    /// one scan of this ledger.
    func firstDivergence(of fork: SyncFork, in ledger: Ledger) async throws -> UInt64 {
        var have = ledger.versionVector
        have[fork.device] = nil
        let digests = try ledger.eventDigests(at: have)
        let ours = ledger.versionVector[fork.device] ?? 0
        var theirs: [UInt64: UInt64] = [:]
        var cursor: UInt64?
        while true {
            let page = try await connection.pull(PullRequest(
                have: WireVersionVector.encode(have), cursor: cursor, limit: pageSize,
                haveDigests: Dictionary(uniqueKeysWithValues: digests.map { ($0.key.description, $0.value) })))
            for wire in page.records {
                let record = try wire.record()
                guard let id = record.eventID, id.device == fork.device, id.seq <= ours else { continue }
                theirs[id.seq] = RecordFingerprint.of(record)
            }
            cursor = page.cursor
            if !page.more { break }
        }
        guard let first = try LedgerCopy.firstDiffering(fork.device, in: ledger, from: theirs) else {
            throw LedgerError(.conflict, "the sync server reported that device \(fork.device)'s event #\(fork.seq) differs from this ledger's, but its events match this ledger's; run the sync again; nothing was written")
        }
        return first
    }
}
