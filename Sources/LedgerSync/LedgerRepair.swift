import LedgerCore

/// What a repair did (`oritsubushi verify --repair`).
package struct RepairReport: Sendable, Equatable {
    /// The first damaged segment's file name and its fault; `nil` when this run only finished an
    /// interrupted repair.
    package var damagedSegment: String?
    package var damage: String?
    /// The quarantine directory of this run, relative to the ledger directory.
    package var quarantine: String?
    /// File names moved aside, in the order they were moved.
    package var moved: [String] = []
    /// Events the damaged segments held, fetched again from the source.
    package var recoveredEvents = 0
    /// Records of the intact segments after the damage, appended again in their order.
    package var reappendedRecords = 0
    /// Further events of the source (or the quarantine) that the ledger lacked, merged.
    package var mergedEvents = 0
    /// Quarantine directories of earlier, interrupted repairs that this run finished.
    package var finished: [String] = []

    package init() {}
}

/// Repairs a ledger whose segments are damaged from a healthy replica's records
/// (RELIABILITY.md, "Repairing a damaged replica").
///
/// `begin` reads every segment on its own, trusting none (`SalvagedSegment`), and finds the first
/// damaged one, k. `repair` then works out, before touching anything, which events segments k…
/// must have held (each device's seqs between what the segments before k hold and where they
/// continue in the intact segments after k, plus the ranges of any readable footer), and refuses
/// unless the source has every one of them. Only then are segments k… moved aside into
/// `quarantine/<UTC time>/` (never deleted), and the ledger is rebuilt through the normal append
/// path: the recovered events (by hlc across devices), the intact later segments' records in
/// their order, then a normal merge of everything else the source holds. Segments before k are
/// not touched.
///
/// Crash safety: the quarantine directory holds a `REPAIRING` marker until the repair is done.
/// Segments are moved newest first, so an interrupted repair leaves either the old ledger minus
/// some newest segments, or the intact prefix plus part of the re-append: both are finished by
/// running the repair again, which reads unfinished quarantine directories as an extra source.
package final class LedgerRepair {
    package static let quarantineDirectory = "quarantine"
    package static let unfinishedMarker = "REPAIRING"
    /// Records per durable batch of the re-append.
    package static let batchSize = 20_000

    package let directory: String
    package let metadata: LedgerMetadata
    package let fileSystem: any FileSystem
    package let clock: any WallClock
    /// Derived files (the projection) moved aside with the segments: their log positions change.
    package var derivedFiles: [String] = []

    /// Every segment file, in number order, each read on its own.
    package private(set) var segments: [SalvagedSegment] = []
    /// The number of the first damaged (or missing) segment, and why.
    package private(set) var firstDamagedNumber: UInt32?
    package private(set) var damage: LedgerError?
    /// Quarantine directories (names) left by repairs that did not finish.
    package private(set) var unfinished: [String] = []

    private let lock: LedgerLock?

    package var needsRepair: Bool { damage != nil || !unfinished.isEmpty }
    package var quarantinePath: String { Path.join(directory, Self.quarantineDirectory) }
    private var segmentsPath: String { Path.join(directory, Ledger.segmentsDirectory) }

    private init(directory: String, metadata: LedgerMetadata, fileSystem: any FileSystem,
                 clock: any WallClock, lock: LedgerLock?) {
        self.directory = directory
        self.metadata = metadata
        self.fileSystem = fileSystem
        self.clock = clock
        self.lock = lock
    }

    /// Releases the ledger's lock (dropping the repair releases it too).
    package func close() { lock?.release() }

    // MARK: - Finding the damage

    /// Takes the ledger's lock and reads every segment, tolerating damage.
    package static func begin(directory: String, fileSystem: any FileSystem = PosixFileSystem(),
                              clock: any WallClock = SystemClock(), useLock: Bool = true) throws -> LedgerRepair {
        let (metadata, lock) = try LedgerMetadata.readAndLock(directory: directory, fileSystem: fileSystem, useLock: useLock)
        let repair = LedgerRepair(directory: directory, metadata: metadata, fileSystem: fileSystem, clock: clock, lock: lock)
        try repair.inspect()
        return repair
    }

    private func inspect() throws {
        let numbers = try fileSystem.listDirectory(segmentsPath).compactMap(SegmentInfo.number(ofFileName:)).sorted()
        for (index, number) in numbers.enumerated() {
            segments.append(.read(number: number, path: Path.join(segmentsPath, SegmentInfo.fileName(number)),
                                  ledgerID: metadata.ledgerIDBytes, isNewest: index == numbers.count - 1,
                                  fileSystem: fileSystem))
        }
        var position: UInt64 = 0
        var held: [DeviceID: UInt64] = [:]
        walk: for (index, segment) in segments.enumerated() {
            let expectedNumber = UInt32(index + 1)
            guard segment.number == expectedNumber else {
                firstDamagedNumber = expectedNumber
                damage = .corrupt("segment \(SegmentInfo.fileName(expectedNumber)) is missing",
                                  file: Path.join(segmentsPath, SegmentInfo.fileName(expectedNumber)), offset: 0)
                break
            }
            if let fault = segment.damage ?? continuityFault(segment, position: position, held: &held) {
                firstDamagedNumber = segment.number
                damage = fault
                break walk
            }
            position += UInt64(segment.records.count)
        }
        if fileSystem.directoryExists(quarantinePath) {
            unfinished = try fileSystem.listDirectory(quarantinePath).sorted().filter {
                fileSystem.fileExists(Path.join(Path.join(quarantinePath, $0), Self.unfinishedMarker))
            }
        }
    }

    /// Whether an intact segment continues the segments before it (log position, device seqs).
    private func continuityFault(_ segment: SalvagedSegment, position: UInt64, held: inout [DeviceID: UInt64]) -> LedgerError? {
        if let header = segment.header, header.firstRecordPosition != position {
            return .corrupt("the segment starts at record \(header.firstRecordPosition), expected \(position)", file: segment.path, offset: 0)
        }
        for record in segment.records {
            guard let id = record.eventID else { continue }
            let expected = (held[id.device] ?? 0) + 1
            guard id.seq == expected else {
                return .corrupt("device \(id.device) has seq \(id.seq) where \(expected) was expected", file: segment.path, offset: 0)
            }
            held[id.device] = id.seq
        }
        return nil
    }

    // MARK: - Repairing

    /// Repairs from `source` (every record of a healthy replica). Every check runs before the
    /// first change: a refusal (exit 65) leaves the ledger directory exactly as it was.
    package func repair(from source: [LedgerRecord], sourceName: String) throws -> RepairReport {
        var report = RepairReport()
        guard needsRepair else { return report }
        var pool = RecordPool()
        try pool.add(source, from: sourceName)
        for name in unfinished {
            let dir = Path.join(quarantinePath, name)
            for file in try fileSystem.listDirectory(dir).sorted() {
                guard let number = SegmentInfo.number(ofFileName: file) else { continue }
                let quarantined = SalvagedSegment.read(number: number, path: Path.join(dir, file), ledgerID: metadata.ledgerIDBytes,
                                                       isNewest: true, fileSystem: fileSystem)
                try pool.add(quarantined.records, from: "quarantine/\(name)/\(file)")
            }
        }
        let kept = segments.prefix { firstDamagedNumber == nil || $0.number < firstDamagedNumber! }
        let rest = segments.dropFirst(kept.count)
        for segment in rest where !segment.isIntact { try pool.add(segment.records, from: segment.fileName) }
        var held: [DeviceID: UInt64] = [:]
        for segment in kept {
            try pool.requireSameContent(segment.records, in: segment.fileName)
            for case let id? in segment.records.map(\.eventID) { held[id.device] = id.seq }
        }

        // The re-append, planned in full before anything moves.
        var plan: [LedgerRecord] = []
        var damagedRun: [SalvagedSegment] = []
        for segment in rest {
            if !segment.isIntact {
                damagedRun.append(segment)
                continue
            }
            report.recoveredEvents += try recover(damagedRun, before: segment, pool: pool, held: &held, into: &plan)
            damagedRun = []
            try pool.requireSameContent(segment.records, in: segment.fileName)
            for record in segment.records {
                if let id = record.eventID {
                    let expected = (held[id.device] ?? 0) + 1
                    guard id.seq == expected else {
                        throw LedgerError(.conflict, "\(segment.fileName) has event \(id) where seq \(expected) was expected, so it cannot follow the repaired segments; nothing was changed")
                    }
                    held[id.device] = id.seq
                }
                plan.append(record)
                report.reappendedRecords += 1
            }
        }
        report.recoveredEvents += try recover(damagedRun, before: nil, pool: pool, held: &held, into: &plan)
        let further = try pool.events(after: held)
        report.mergedEvents = further.count

        // Changes start here.
        let quarantine = try makeQuarantineDirectory()
        report.quarantine = Path.join(Self.quarantineDirectory, quarantine)
        if let damage {
            report.damagedSegment = firstDamagedNumber.map(SegmentInfo.fileName)
            report.damage = damage.description
        }
        let target = Path.join(quarantinePath, quarantine)
        for name in derivedFiles where fileSystem.fileExists(Path.join(directory, name)) {
            try moveAside(Path.join(directory, name), into: target, from: directory)
        }
        if let first = firstDamagedNumber {
            report.moved = try moveSegmentsAside(from: first, into: target)
        }

        let ledger = try Ledger.open(directory: directory, fileSystem: fileSystem, clock: clock, useLock: false)
        defer { ledger.close() }
        var start = 0
        while start < plan.count {
            let end = min(plan.count, start + Self.batchSize)
            try ledger.appendReplicated(plan[start..<end])
            start = end
        }
        if !further.isEmpty || !pool.names.isEmpty {
            // The normal merge path, minus what does not fit a repair: these events were accepted
            // once already (no clock-lead check), and a knowledge mark could take a seq of the
            // local device that the source is still to bring.
            var options = MergeOptions()
            options.countsConflicts = false
            options.writesKnowledgeMarks = false
            options.maximumClockLead = Int64.max / 4
            let prepared = try LedgerMerger.prepare(further + pool.names.map { .deviceName($0) }, for: ledger, options: options)
            report.mergedEvents = try LedgerMerger.apply(prepared, to: ledger, options: options).eventsIn
        }
        for name in unfinished + [quarantine] {
            try fileSystem.removeFile(Path.join(Path.join(quarantinePath, name), Self.unfinishedMarker))
            try fileSystem.syncDirectory(Path.join(quarantinePath, name))
        }
        report.finished = unfinished
        return report
    }

    /// Plans the events a run of damaged segments held, before the intact segment `next` (or at
    /// the end of the log): for every device, the seqs from what is already planned up to where
    /// `next` continues it, or up to what the run's footers and readable records show. All must
    /// be in the pool. Returns how many were planned.
    private func recover(_ run: [SalvagedSegment], before next: SalvagedSegment?, pool: RecordPool,
                         held: inout [DeviceID: UInt64], into plan: inout [LedgerRecord]) throws -> Int {
        guard !run.isEmpty || next != nil else { return 0 }
        var continues: [DeviceID: UInt64] = [:]
        for case let id? in (next?.records ?? []).map(\.eventID) where continues[id.device] == nil {
            continues[id.device] = id.seq
        }
        var upTo: [DeviceID: UInt64] = continues.mapValues { $0 - 1 }
        for segment in run {
            var shown = segment.highestSeqs
            for range in segment.footer?.deviceRanges ?? [] { shown[range.device] = max(shown[range.device] ?? 0, range.lastSeq) }
            for (device, seq) in shown where continues[device] == nil { upTo[device] = max(upTo[device] ?? 0, seq) }
        }
        var perDevice: [[LedgerRecord]] = []
        for (device, last) in upTo.sorted(by: { $0.key < $1.key }) {
            let first = (held[device] ?? 0) + 1
            guard last >= first else { continue }
            let owner = run.first.map(\.fileName) ?? SegmentInfo.fileName(next!.number - 1)
            perDevice.append(try pool.events(of: device, seqs: first...last, neededBy: owner))
            held[device] = last
        }
        let recovered = Self.orderedByHLC(perDevice)
        plan.append(contentsOf: recovered)
        return recovered.count
    }

    /// Interleaves per-device runs (each in seq order) by hlc.
    static func orderedByHLC(_ runs: [[LedgerRecord]]) -> [LedgerRecord] {
        var next = Array(repeating: 0, count: runs.count)
        var ordered: [LedgerRecord] = []
        ordered.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        while true {
            var best: Int?
            for i in runs.indices where next[i] < runs[i].count {
                if let b = best, runs[b][next[b]].hlc <= runs[i][next[i]].hlc { continue }
                best = i
            }
            guard let i = best else { return ordered }
            ordered.append(runs[i][next[i]])
            next[i] += 1
        }
    }

    // MARK: - Moving aside

    /// Creates `quarantine/<UTC time>/` with the unfinished marker, durably.
    private func makeQuarantineDirectory() throws -> String {
        if !fileSystem.directoryExists(quarantinePath) {
            try fileSystem.createDirectory(quarantinePath)
            try fileSystem.syncDirectory(directory)
        }
        let iso = ISO8601.format(milliseconds: clock.nowMilliseconds())
        let stamp = String(iso.prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
        var name = stamp
        var attempt = 1
        while fileSystem.directoryExists(Path.join(quarantinePath, name)) || fileSystem.fileExists(Path.join(quarantinePath, name)) {
            attempt += 1
            name = "\(stamp)-\(attempt)"
        }
        let path = Path.join(quarantinePath, name)
        try fileSystem.createDirectory(path)
        try fileSystem.syncDirectory(quarantinePath)
        let note = "an interrupted 'oritsubushi verify --repair' moved these files aside; run it again to finish\n"
        try fileSystem.writeAtomically(Path.join(path, Self.unfinishedMarker), Array(note.utf8))
        return name
    }

    /// Moves every file of segments numbered `first` and above (the segment and any side files
    /// named after it), newest first, so that what stays is always a prefix of the log.
    private func moveSegmentsAside(from first: UInt32, into target: String) throws -> [String] {
        let names = try fileSystem.listDirectory(segmentsPath)
        let byNumber = Dictionary(grouping: names.compactMap { name -> (UInt32, String)? in
            guard name.count >= 8, let number = UInt32(name.prefix(8)), number >= first else { return nil }
            return (number, name)
        }, by: \.0)
        var moved: [String] = []
        for number in byNumber.keys.sorted(by: >) {
            let segment = SegmentInfo.fileName(number)
            // Side files first: the segment itself goes last.
            for name in byNumber[number]!.map(\.1).sorted(by: { ($0 == segment ? 1 : 0, $0) < ($1 == segment ? 1 : 0, $1) }) {
                try moveAside(Path.join(segmentsPath, name), into: target, from: segmentsPath)
                moved.append(name)
            }
        }
        return moved
    }

    private func moveAside(_ path: String, into target: String, from parent: String) throws {
        try fileSystem.rename(path, to: Path.join(target, Path.lastComponent(path)))
        try fileSystem.syncDirectory(target)
        try fileSystem.syncDirectory(parent)
    }
}

/// The records a repair may take events from: the source, unfinished quarantines and the
/// readable part of damaged segments. Two copies of one event must be identical.
private struct RecordPool {
    private var events: [EventID: (record: LedgerRecord, from: String)] = [:]
    private(set) var names: [DeviceNameRecord] = []

    mutating func add(_ records: [LedgerRecord], from origin: String) throws {
        for record in records {
            guard let id = record.eventID else {
                if case .deviceName(let name) = record { names.append(name) }
                continue
            }
            if let other = events[id] {
                guard other.record == record else { throw Self.differs(id, other.from, origin) }
            } else {
                events[id] = (record, origin)
            }
        }
    }

    func requireSameContent(_ records: [LedgerRecord], in origin: String) throws {
        for record in records {
            guard let id = record.eventID, let other = events[id] else { continue }
            guard other.record == record else { throw Self.differs(id, other.from, origin) }
        }
    }

    /// Device `device`'s events `seqs`, in seq order; refuses, naming the missing seqs, if any
    /// is missing.
    func events(of device: DeviceID, seqs: ClosedRange<UInt64>, neededBy segment: String) throws -> [LedgerRecord] {
        var found: [LedgerRecord] = []
        found.reserveCapacity(seqs.count)
        for seq in seqs {
            guard let entry = events[EventID(device: device, seq: seq)] else {
                var last = seq
                while last < seqs.upperBound, events[EventID(device: device, seq: last + 1)] == nil { last += 1 }
                let range = last == seq ? "seq \(seq)" : "seqs \(seq)–\(last)"
                throw LedgerError(.conflict, "cannot repair: \(segment) held device \(device)'s events \(range), which the source does not have; nothing was changed")
            }
            found.append(entry.record)
        }
        return found
    }

    /// The events past `held`, which must continue every device's seqs without a gap.
    func events(after held: [DeviceID: UInt64]) throws -> [LedgerRecord] {
        var byDevice: [DeviceID: [UInt64]] = [:]
        for id in events.keys where id.seq > held[id.device] ?? 0 { byDevice[id.device, default: []].append(id.seq) }
        var result: [LedgerRecord] = []
        for (device, seqs) in byDevice.sorted(by: { $0.key < $1.key }) {
            var expected = (held[device] ?? 0) + 1
            for seq in seqs.sorted() {
                guard seq == expected else {
                    let range = seq - 1 == expected ? "seq \(expected)" : "seqs \(expected)–\(seq - 1)"
                    throw LedgerError(.conflict, "cannot repair: device \(device)'s events \(range) are missing from the ledger and the source; nothing was changed")
                }
                result.append(events[EventID(device: device, seq: seq)]!.record)
                expected += 1
            }
        }
        return result
    }

    private static func differs(_ id: EventID, _ first: String, _ second: String) -> LedgerError {
        LedgerError(.conflict, "cannot repair: event \(id) differs between \(first) and \(second) (a corrupt or forged replica); nothing was changed")
    }
}
