import LedgerCore

extension SealedAdmission.Admitted {
    /// What a store appends for this admission of `received`: the records as they came, their
    /// frames kept (a store writes them as they came, Schemas/sync-frames.md, instead of encoding
    /// them again) when every one was admitted and each device's seqs rise in them (the order a
    /// device sends its log in); otherwise the admitted events in (device, seq) order, then the
    /// new names.
    package func batch(received: SealedRecords) -> SealedRecords {
        if duplicates == 0, events.count + names.count == received.count, received.frames != nil, Self.rises(received) {
            return received
        }
        var batch = SealedRecords()
        for record in events + names { batch.append(record) }
        return batch
    }

    private static func rises(_ records: SealedRecords) -> Bool {
        var last: [DeviceID: UInt64] = [:]
        var rising = true
        records.forEach { view in
            guard rising, view.kind.holdsEvents else { return }
            if view.firstSeq <= last[view.device] ?? 0 { rising = false }
            last[view.device] = view.seq
        }
        return rising
    }
}
