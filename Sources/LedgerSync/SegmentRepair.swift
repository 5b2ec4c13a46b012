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
    /// With `acceptingLoss`: the events no source had, and everything of their device after
    /// them (a device's seqs cannot skip), per device. Empty otherwise.
    package var lost = LostEvents()
    /// False when the repair was only planned (`dryRun`): nothing changed.
    package var applied = false

    package init() {}
}

/// The repair of a plaintext ledger (a device's, or a plaintext account's on the files store).
package typealias LedgerRepair = SegmentRepair<LedgerRecord>
/// The repair of an end-to-end encrypted account's sealed ledger on the files store, from sealed
/// replicas, without the key (Schemas/encryption.md §11).
package typealias SealedLedgerRepair = SegmentRepair<SealedRecord>

/// Repairs a ledger whose segments are damaged from a healthy replica's records
/// (RELIABILITY.md, "Repairing a damaged replica"), of either form (`RepairableRecord`).
///
/// `begin` reads every segment on its own, trusting none (`SalvagedSegment`), and finds the first
/// damaged one, k. `repair` then works out, before touching anything, which events segments k…
/// must have held (each device's seqs between what the segments before k hold and where they
/// continue in the intact segments after k, plus the ranges of any readable footer), and refuses
/// unless the source has every one of them. Only then are segments k… moved aside into
/// `quarantine/<UTC time>/` (never deleted; `Quarantine`), and the ledger is rebuilt through the normal append
/// path: the recovered events (by hlc across devices), the intact later segments' records in
/// their order, then a normal merge of everything else the source holds. Segments before k are
/// not touched.
///
/// Crash safety: the quarantine directory holds a `REPAIRING` marker until the repair is done.
/// Segments are moved newest first, so an interrupted repair leaves either the old ledger minus
/// some newest segments, or the intact prefix plus part of the re-append: both are finished by
/// running the repair again, which reads unfinished quarantine directories as an extra source.
package final class SegmentRepair<Record: RepairableRecord> {
    package static var quarantineDirectory: String { Quarantine.directoryName }
    package static var unfinishedMarker: String { Quarantine.unfinishedMarker }
    /// Records per durable batch of the re-append.
    package static var batchSize: Int { 20_000 }

    package let directory: String
    package let metadata: LedgerMetadata
    package let fileSystem: any FileSystem
    package let clock: any WallClock
    /// Derived files (the projection) moved aside with the segments: their log positions change.
    package var derivedFiles: [String] = []
    /// `server repair --accept-loss`: events no source holds are given up (with every later
    /// event of their device) instead of refusing the repair; `RepairReport.lost` names them.
    package var acceptingLoss = false

    /// Every segment file, in number order, each read on its own.
    package private(set) var segments: [SalvagedSegment<Record>] = []
    /// The number of the first damaged (or missing) segment, and why.
    package private(set) var firstDamagedNumber: UInt32?
    package private(set) var damage: LedgerError?
    /// Quarantine directories (names) left by repairs that did not finish.
    package private(set) var unfinished: [String] = []

    private let lock: LedgerLock?
    private let quarantine: Quarantine

    package var needsRepair: Bool { damage != nil || !unfinished.isEmpty }
    package var quarantinePath: String { quarantine.path }
    private var segmentsPath: String { Path.join(directory, Ledger.segmentsDirectory) }

    private init(directory: String, metadata: LedgerMetadata, fileSystem: any FileSystem,
                 clock: any WallClock, lock: LedgerLock?) {
        self.directory = directory
        self.metadata = metadata
        self.fileSystem = fileSystem
        self.clock = clock
        self.lock = lock
        self.quarantine = Quarantine(ledgerDirectory: directory, fileSystem: fileSystem)
    }

    /// Releases the ledger's lock (dropping the repair releases it too).
    package func close() { lock?.release() }

    // MARK: - Finding the damage

    /// Takes the ledger's lock and reads every segment, tolerating damage.
    package static func begin(directory: String, fileSystem: any FileSystem = PosixFileSystem(),
                              clock: any WallClock = SystemClock(), useLock: Bool = true,
                              lock request: LedgerLock.Request = .exclusive) throws -> SegmentRepair<Record> {
        let (metadata, lock) = try LedgerMetadata.readAndLock(directory: directory, fileSystem: fileSystem, useLock: useLock,
                                                              request: request, records: Record.form)
        let repair = SegmentRepair(directory: directory, metadata: metadata, fileSystem: fileSystem, clock: clock, lock: lock)
        // A refusal to read releases the lock at once, not when the repair is dropped.
        do { try repair.inspect() } catch {
            repair.close()
            throw error
        }
        return repair
    }

    private func inspect() throws {
        let numbers = try SegmentInfo.numbers(in: segmentsPath, fileSystem: fileSystem)
        for (index, number) in numbers.enumerated() {
            segments.append(.read(number: number, path: Path.join(segmentsPath, SegmentInfo.fileName(number)),
                                  ledgerID: metadata.ledgerIDBytes, isNewest: index == numbers.count - 1,
                                  watermarkRequired: metadata.requiresWatermark(number), fileSystem: fileSystem))
        }
        var position: UInt64 = 0
        var continuity = SeqContinuity()
        for (index, segment) in segments.enumerated() {
            let expectedNumber = UInt32(index + 1)
            guard segment.number == expectedNumber else {
                firstDamagedNumber = expectedNumber
                damage = SegmentFault(.missing(segment: expectedNumber),
                                      file: Path.join(segmentsPath, SegmentInfo.fileName(expectedNumber)), offset: 0).error
                break
            }
            if let fault = segment.damage ?? continuityFault(segment, position: position, continuity: &continuity) {
                firstDamagedNumber = segment.number
                damage = fault
                break
            }
            position += UInt64(segment.records.count)
        }
        unfinished = try quarantine.unfinishedRuns()
    }

    /// Whether an intact segment continues the segments before it (log position, device seqs).
    private func continuityFault(_ segment: SalvagedSegment<Record>, position: UInt64, continuity: inout SeqContinuity) -> LedgerError? {
        if let header = segment.header, header.firstRecordPosition != position {
            return SegmentFault(.wrongPosition(found: header.firstRecordPosition, expected: position), file: segment.path, offset: 0).error
        }
        for record in segment.records {
            guard let id = record.eventID else { continue }
            if let gap = continuity.accept(device: id.device, first: id.seq, last: record.lastSeq) {
                return .corrupt(gap.message(), file: segment.path, offset: 0)
            }
        }
        return nil
    }

    // MARK: - Repairing

    /// Repairs from `source` (every record of a healthy replica). Every check runs before the
    /// first change: a refusal (exit 65) leaves the ledger directory exactly as it was. With
    /// `dryRun` only the plan is made (the report says what would be restored and lost).
    package func repair(from source: [Record], sourceName: String, dryRun: Bool = false) throws -> RepairReport {
        try repair(from: [(source, sourceName)], dryRun: dryRun)
    }

    /// Repairs from several sources (replicas of the same ledger; one event must be identical
    /// wherever it is held).
    package func repair(from sources: [(records: [Record], name: String)], dryRun: Bool = false) throws -> RepairReport {
        var report = RepairReport()
        guard needsRepair else { return report }
        var pool = RecordPool<Record>()
        for source in sources { try pool.add(source.records, from: source.name) }
        for run in unfinished {
            for quarantined: SalvagedSegment<Record> in try quarantine.salvagedSegments(of: run, ledgerID: metadata.ledgerIDBytes) {
                try pool.add(quarantined.records, from: "\(Quarantine.directoryName)/\(run)/\(quarantined.fileName)")
            }
        }
        let kept = segments.prefix { firstDamagedNumber == nil || $0.number < firstDamagedNumber! }
        let rest = segments.dropFirst(kept.count)
        for segment in rest where !segment.isIntact { try pool.add(segment.records, from: segment.fileName) }
        var held = SeqContinuity()
        for segment in kept {
            try pool.requireSameContent(segment.records, in: segment.fileName)
            // Intact and continuous: `inspect` checked these.
            for record in segment.records {
                if let id = record.eventID { _ = held.accept(device: id.device, first: id.seq, last: record.lastSeq) }
            }
        }

        // The re-append, planned in full before anything moves.
        var plan: [Record] = []
        var damagedRun: [SalvagedSegment<Record>] = []
        for segment in rest {
            if !segment.isIntact {
                damagedRun.append(segment)
                continue
            }
            report.recoveredEvents += try recover(damagedRun, before: segment, pool: pool, held: &held, into: &plan, lost: &report.lost)
            damagedRun = []
            try pool.requireSameContent(segment.records, in: segment.fileName)
            for record in segment.records {
                if let id = record.eventID, report.lost.cuts(id) {
                    report.lost.add(device: id.device, seqs: id.seq...record.lastSeq)
                    continue
                }
                if let id = record.eventID, let gap = held.accept(device: id.device, first: id.seq, last: record.lastSeq) {
                    throw LedgerError(.conflict, "\(segment.fileName) cannot follow the repaired segments: \(gap.message()); nothing was changed")
                }
                plan.append(record)
                report.reappendedRecords += 1
            }
        }
        report.recoveredEvents += try recover(damagedRun, before: nil, pool: pool, held: &held, into: &plan, lost: &report.lost)
        let further = try pool.events(after: held.versionVector, lost: &report.lost)
        report.mergedEvents = further.reduce(0) { $0 + $1.eventCount }
        if dryRun { return report }

        // Changes start here.
        let run = try quarantine.beginRun(at: clock.nowMilliseconds())
        report.quarantine = Path.join(Quarantine.directoryName, run)
        if let damage {
            report.damagedSegment = firstDamagedNumber.map(SegmentInfo.fileName)
            report.damage = damage.description
        }
        for name in derivedFiles where fileSystem.fileExists(Path.join(directory, name)) {
            try quarantine.moveAside(Path.join(directory, name), into: run)
        }
        if let first = firstDamagedNumber {
            report.moved = try quarantine.moveSegments(from: first, into: run)
        }

        let ledger = try Ledger.open(directory: directory, fileSystem: fileSystem, clock: clock, useLock: false, records: Record.form)
        defer { ledger.close() }
        var start = 0
        while start < plan.count {
            let end = min(plan.count, start + Self.batchSize)
            try Record.append(plan[start..<end], to: ledger)
            start = end
        }
        if !further.isEmpty || !pool.names.isEmpty {
            report.mergedEvents = try Record.merge(further, names: pool.names, into: ledger)
        }
        try quarantine.finish(unfinished + [run])
        report.finished = unfinished
        report.applied = true
        return report
    }

    /// Plans the events a run of damaged segments held, before the intact segment `next` (or at
    /// the end of the log): for every device, the seqs from what is already planned up to where
    /// `next` continues it, or up to what the run's footers and readable records show. All must
    /// be in the pool. Returns how many were planned.
    private func recover(_ run: [SalvagedSegment<Record>], before next: SalvagedSegment<Record>?, pool: RecordPool<Record>,
                         held: inout SeqContinuity, into plan: inout [Record], lost: inout LostEvents) throws -> Int {
        guard !run.isEmpty || next != nil else { return 0 }
        var continues: [DeviceID: UInt64] = [:]
        for case let id? in (next?.records ?? []).map(\.eventID) where continues[id.device] == nil {
            continues[id.device] = id.seq
        }
        var upTo: [DeviceID: UInt64] = continues.mapValues { $0 - 1 }
        for segment in run {
            var shown = segment.highestSeqs
            for range in segment.footer?.deviceRanges ?? [] { shown[range.device] = max(shown[range.device] ?? 0, range.lastSeq) }
            // This device's own seqs up to the watermark were issued: none may be issued again.
            if let local = segment.acknowledgedLocalSeq, local > 0 {
                shown[metadata.deviceID] = max(shown[metadata.deviceID] ?? 0, local)
            }
            for (device, seq) in shown where continues[device] == nil { upTo[device] = max(upTo[device] ?? 0, seq) }
        }
        var perDevice: [[Record]] = []
        for (device, last) in upTo.sorted(by: { $0.key < $1.key }) {
            let first = held.last(of: device) + 1
            guard last >= first else { continue }
            let owner = run.first.map(\.fileName) ?? SegmentInfo.fileName(next!.number - 1)
            guard acceptingLoss else {
                perDevice.append(try pool.events(of: device, seqs: first...last, neededBy: owner))
                _ = held.accept(device: device, first: first, last: last)
                continue
            }
            let found = pool.availableEvents(of: device, seqs: first...last)
            let next = found.last.map { $0.lastSeq + 1 } ?? first
            if next <= last { lost.add(device: device, seqs: next...last) }
            guard !found.isEmpty else { continue }
            perDevice.append(found)
            _ = held.accept(device: device, first: first, last: next - 1)
        }
        let recovered = Self.ordered(perDevice)
        plan.append(contentsOf: recovered)
        return recovered.reduce(0) { $0 + $1.eventCount }
    }

    /// Interleaves per-device runs (each in seq order) by `recoveryOrder` (a plaintext
    /// record's hlc).
    static func ordered(_ runs: [[Record]]) -> [Record] {
        var next = Array(repeating: 0, count: runs.count)
        var ordered: [Record] = []
        ordered.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        while true {
            var best: Int?
            for i in runs.indices where next[i] < runs[i].count {
                if let b = best, runs[b][next[b]].recoveryOrder <= runs[i][next[i]].recoveryOrder { continue }
                best = i
            }
            guard let i = best else { return ordered }
            ordered.append(runs[i][next[i]])
            next[i] += 1
        }
    }
}
