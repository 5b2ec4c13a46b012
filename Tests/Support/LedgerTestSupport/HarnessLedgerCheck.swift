import LedgerCore

/// Checks a ledger written by the crash workloads (`HarnessEvents`) after a crash and recovery.
package enum HarnessLedgerCheck {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// Reads every record and checks that the log is a consistent prefix of the workload: the
    /// local device's name first, then local events 1, 2, 3 … with exactly the content
    /// `HarnessEvents.draft(seq:)` gives and rising hlcs, at least `acknowledged` of them, and
    /// that `verify()` agrees. Returns the number of events held.
    @discardableResult
    package static func check(_ ledger: Ledger, acknowledged: UInt64) throws -> UInt64 {
        let device = ledger.localDevice
        var held: UInt64 = 0
        var lastHLC = HybridTimestamp.zero
        var position: UInt64 = 0
        var problem: String?
        try ledger.forEachRecord { view, at in
            guard problem == nil else { return }
            defer { position += 1 }
            if at != position { problem = "record \(position) came with position \(at)"; return }
            switch view.record {
            case .deviceName(let name):
                if position != 0 || name.device != device || name.name != HarnessEvents.deviceName {
                    problem = "unexpected device name record \(name) at position \(position)"
                }
            case .stationEdit(let edit):
                if position == 0 { problem = "the log does not start with the device's name"; return }
                if let mismatch = HarnessEvents.mismatch(edit, device: device, seq: held + 1) { problem = mismatch; return }
                if edit.hlc <= lastHLC { problem = "event \(edit.id) has hlc \(edit.hlc.rawValue), not after \(lastHLC.rawValue)" }
                lastHLC = edit.hlc
                held += 1
            default:
                problem = "unexpected record \(view.record) at position \(position)"
            }
        }
        if let problem { throw Failure(problem) }
        guard held >= acknowledged else {
            throw Failure("only \(held) events survived, but \(acknowledged) were acknowledged")
        }
        guard position == ledger.recordCount else {
            throw Failure("read \(position) records, but the ledger counts \(ledger.recordCount)")
        }
        guard (ledger.versionVector[device] ?? 0) == held, ledger.versionVector.count <= 1 else {
            throw Failure("the version vector \(ledger.versionVector) does not match the \(held) events read")
        }
        let report = try ledger.verify()
        guard report.events == held, report.records == position else {
            throw Failure("verify counted \(report.events) events and \(report.records) records, the scan \(held) and \(position)")
        }
        return held
    }

    /// Appends the workload's next event and checks it got the next seq; then reopens and checks
    /// the whole log again. Returns the number of events held afterwards.
    @discardableResult
    package static func checkAppendContinues(_ ledger: Ledger, reopen: () throws -> Ledger) throws -> UInt64 {
        let held = try check(ledger, acknowledged: 0)
        let next = held + 1
        let appended = try ledger.appendLocal([HarnessEvents.draft(seq: next)])
        guard appended.count == 1, appended[0].id == EventID(device: ledger.localDevice, seq: next) else {
            throw Failure("the append after recovery got \(appended.map(\.id)), expected seq \(next)")
        }
        ledger.close()
        let reopened = try reopen()
        defer { reopened.close() }
        return try check(reopened, acknowledged: next)
    }

    /// After opening, every byte of an unsealed newest segment is below its watermark
    /// (Schemas/segment-format.md §5b): from here on, no flip in it can pass for a tear.
    package static func checkWatermarkCoversTheNewestSegment(_ ledger: Ledger) throws {
        guard let newest = ledger.segments.last, !newest.sealed else { return }
        let read = SegmentWatermark.read(of: newest.number, segmentsPath: ledger.segmentsPath, fileSystem: ledger.fileSystem)
        guard let mark = try read.get() else { throw Failure("no watermark for \(newest.path) after opening") }
        guard mark.durableLength == newest.fileSize else {
            throw Failure("the watermark covers \(mark.durableLength) of \(newest.fileSize) bytes after opening")
        }
    }
}
