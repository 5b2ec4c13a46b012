import LedgerCore

/// What `oritsubushi reissue` moves (Schemas/merge.md §11): the local device's events from the
/// first one dated beyond the clock bound relative to now, to its last. They must all be
/// unreceived: above the highest seq of this device that a sync server acknowledged
/// (`SyncState`) and that any other device's knowledge mark in this ledger records.
package struct ReissuePlan: Sendable, Equatable {
    package var device: DeviceID
    /// The local device's events `firstSeq...lastSeq` move.
    package var firstSeq: UInt64
    package var lastSeq: UInt64
    /// Station edits among them.
    package var stationEdits = 0
    /// The latest hlc among them.
    package var latest = HybridTimestamp.zero

    package var events: UInt64 { lastSeq - firstSeq + 1 }

    /// The plan for `ledger` at its clock's now, or nil when no local event is dated beyond
    /// `lead`. Refuses (`.conflict`) when the first such event was already received by someone.
    /// One scan of the log.
    package static func make(_ ledger: Ledger, state: SyncState,
                             lead: MergeOptions.ClockLeadPolicy = MergeOptions.defaultClockLead) throws -> ReissuePlan? {
        guard case .refuseBeyond(let bound) = lead else { return nil }
        let local = ledger.localDevice
        let limit = ledger.clock.nowMilliseconds() + bound
        var plan: ReissuePlan?
        var seenBy: (seq: UInt64, device: DeviceID)?
        try ledger.forEachRecord { view, _ in
            guard view.hasEventID else { return }
            if view.device == local {
                if plan == nil, view.hlc.milliseconds > limit {
                    plan = ReissuePlan(device: local, firstSeq: view.seq, lastSeq: ledger.versionVector[local] ?? view.seq)
                }
                guard plan != nil else { return }
                plan!.latest = max(plan!.latest, view.hlc)
                if view.kind == .stationEdit { plan!.stationEdits += 1 }
            } else if view.kind == .knowledgeMark, case .knowledgeMark(let mark) = view.record,
                      let seen = mark.knowledge[local], seen > seenBy?.seq ?? 0 {
                seenBy = (seen, view.device)
            }
        }
        guard let plan else { return nil }
        let server = state.received(local)
        if plan.firstSeq <= server {
            throw refusal(plan, by: "the sync server", seq: server)
        }
        if let seenBy, plan.firstSeq <= seenBy.seq {
            let name = ledger.deviceNames[seenBy.device].map { "'\($0.name)' (\(seenBy.device))" } ?? "\(seenBy.device)"
            throw refusal(plan, by: "device \(name)", seq: seenBy.seq)
        }
        return plan
    }

    private static func refusal(_ plan: ReissuePlan, by whom: String, seq: UInt64) -> LedgerError {
        LedgerError(.conflict, "device \(plan.device)'s events from #\(plan.firstSeq) are dated beyond the clock bound, but \(whom) already received them up to #\(seq), so they cannot be reissued; nothing was changed")
    }
}
