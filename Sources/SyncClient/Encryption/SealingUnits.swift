import Foundation
import LedgerCore
import LedgerSync

/// What a push seals, cut from its records before anything is sealed (Schemas/encryption.md
/// §3.5, "Who makes runs"): each device's consecutive events as runs, an event that would be a
/// run of its own alone, each device name alone; so that the units can then be sealed on every
/// core, and joined in order to the same bytes as on one.
struct SealingUnit: Sendable {
    enum Kind: Sendable { case run, event, name }

    var kind: Kind
    /// Where the unit's records are in the push's bytes.
    let offset: Int
    var byteCount: Int
    let device: DeviceID
    let first: UInt64
    var last: UInt64

    /// The units of `records`, in order; with `asRuns` false every event alone.
    static func cut(_ records: EncodedRecords, asRuns: Bool) -> [SealingUnit] {
        records.bytes.withUnsafeBytes { buffer in
            var units: [SealingUnit] = []
            guard let base = buffer.baseAddress else { return units }
            var offset = 0
            while offset < buffer.count {
                let view = RecordView(validated: base + offset, length: RecordStream.validatedLength(at: base + offset))
                if view.kind == .deviceName {
                    units.append(SealingUnit(kind: .name, offset: offset, byteCount: view.length, device: view.device, first: 0, last: 0))
                } else if asRuns, let previous = units.last, previous.kind != .name, previous.device == view.device,
                          previous.last &+ 1 == view.seq, previous.byteCount + view.length <= SealedRecordLayout.maximumRunRecordBytes {
                    units[units.count - 1].byteCount += view.length
                    units[units.count - 1].last = view.seq
                    units[units.count - 1].kind = .run
                } else {
                    units.append(SealingUnit(kind: .event, offset: offset, byteCount: view.length, device: view.device,
                                             first: view.seq, last: view.seq))
                }
                offset += view.length
            }
            return units
        }
    }

    /// `units` in at most `parts` groups of about equal bytes, in order.
    static func groups(_ units: [SealingUnit], parts: Int) -> [Range<Int>] {
        let total = units.reduce(0) { $0 + $1.byteCount }
        guard parts > 1, units.count > 1 else { return [0..<units.count] }
        var groups: [Range<Int>] = []
        var (start, bytes) = (0, 0)
        for (index, unit) in units.enumerated() {
            bytes += unit.byteCount
            if bytes >= total / parts * (groups.count + 1) || index == units.count - 1 {
                groups.append(start..<(index + 1))
                start = index + 1
            }
        }
        return groups
    }
}

/// Work spread over every core: `count` parts, each done once on some thread, their results in
/// order (the first failure in that order is the one thrown).
enum EveryCore {
    static var parts: Int { ProcessInfo.processInfo.activeProcessorCount }

    static func map<T>(_ count: Int, _ work: @Sendable (Int) throws(EncryptionError) -> T) throws(EncryptionError) -> [T] {
        if count == 1 { return [try work(0)] }
        let results = Results<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            results.set(index, Result { () throws(EncryptionError) in try work(index) })
        }
        // Every part is done: `concurrentPerform` returns after the last.
        return try results.all.map { result throws(EncryptionError) in try result!.get() }
    }

    /// Each part's result, written once by the part's own thread.
    private final class Results<T>: @unchecked Sendable {
        private(set) var all: [Result<T, EncryptionError>?]
        private let lock = NSLock()

        init(count: Int) { all = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ result: Result<T, EncryptionError>) {
            lock.withLock { all[index] = result }
        }
    }
}
