/// The rule that every device's events carry seqs 1, 2, 3, … in log order, with no gap and no
/// repeat (Schemas/segment-format.md §5, Schemas/merge.md), and the one way a break of it is
/// worded. Opening, verifying, appending, merging and repairing all check it through this type.
///
/// Events usually come in runs of one device, so the highest seq of the current run is kept
/// apart: one dictionary lookup per run, not per event (the append path depends on that).
package struct SeqContinuity: Sendable {
    private var held: [DeviceID: UInt64]
    private var runDevice: DeviceID?
    private var runSeq: UInt64 = 0

    /// Starts from `held`, the highest seq already held per device (a version vector).
    package init(held: [DeviceID: UInt64] = [:]) {
        self.held = held
    }

    /// The highest seq per device after everything accepted.
    package var versionVector: [DeviceID: UInt64] {
        var vector = held
        if let runDevice { vector[runDevice] = runSeq }
        return vector
    }

    /// The highest seq held for `device`.
    package func last(of device: DeviceID) -> UInt64 {
        device == runDevice ? runSeq : held[device] ?? 0
    }

    /// Takes `seq` as `device`'s next event. Returns the break if it is not exactly the next
    /// seq; the seq is taken as the device's highest either way.
    @inline(__always)
    package mutating func accept(device: DeviceID, seq: UInt64) -> SeqGap? {
        if device != runDevice {
            if let previous = runDevice { held[previous] = runSeq }
            runDevice = device
            runSeq = held[device] ?? 0
        }
        let gap = seq == runSeq + 1 ? nil : SeqGap(device: device, held: runSeq, found: seq)
        runSeq = seq
        return gap
    }

    /// Takes the events a sealed record stands for (a run's `first … last`, segment-format.md
    /// §3.6; none for a name).
    @inline(__always)
    package mutating func accept(_ sealed: SealedRecordView) -> SeqGap? {
        sealed.kind.holdsEvents ? accept(device: sealed.device, first: sealed.firstSeq, last: sealed.seq) : nil
    }

    @inline(__always)
    package mutating func accept(_ id: EventID) -> SeqGap? {
        accept(device: id.device, seq: id.seq)
    }

    /// Takes the run `first…last` of `device` (a segment summary's range, a sealed run) at once.
    package mutating func accept(device: DeviceID, first: UInt64, last: UInt64) -> SeqGap? {
        if let gap = accept(device: device, seq: first) { return gap }
        guard last >= first else { return SeqGap(device: device, held: first, found: last) }
        runSeq = last
        return nil
    }
}

/// A break of seq continuity: `device` held up to `held` and the next event had `found`.
package struct SeqGap: Error, Equatable, Sendable, CustomStringConvertible {
    package var device: DeviceID
    /// The last seq held and the seq that came next (never `held + 1`).
    package var held, found: UInt64

    package init(device: DeviceID, held: UInt64, found: UInt64) {
        (self.device, self.held, self.found) = (device, held, found)
    }

    /// One sentence; `label` names the device (its id by default).
    package func message(device label: String? = nil) -> String {
        let name = label ?? "\(device)"
        if found > held {
            return "device \(name)'s events jump from seq \(held) to \(found) (seq \(held + 1) must come next)"
        }
        return "device \(name)'s event seq \(found) comes again after seq \(held) (seq \(held + 1) must come next)"
    }

    package var description: String { message() }
}
