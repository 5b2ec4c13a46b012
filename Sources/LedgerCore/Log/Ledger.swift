/// An append-only ledger directory: `ledger.json`, `LOCK` and `segments/NNNNNNNN.seg`
/// (Schemas/segment-format.md).
///
/// Opening takes the single-writer lock, reads the header and footer of every sealed segment
/// (never their frames), scans only the newest unsealed segment, and truncates a torn tail there.
/// So opening costs time proportional to one segment, not to the log.
package final class Ledger {
    package static let segmentsDirectory = "segments"
    /// A segment is sealed once it reaches this size; it is never modified afterwards.
    package static let defaultRollThreshold = 32 << 20

    package let directory: String
    package let metadata: LedgerMetadata
    package let fileSystem: any FileSystem
    package let clock: any WallClock
    package var rollThreshold = Ledger.defaultRollThreshold

    package private(set) var segments: [SegmentInfo] = []
    /// Highest seq held per device; seqs are contiguous from 1, so this is the version vector.
    package private(set) var versionVector: [DeviceID: UInt64] = [:]
    package private(set) var deviceNames: [DeviceID: DeviceNameRecord] = [:]
    /// The hybrid logical clock: the largest hlc of any record held.
    package private(set) var lastHLC = HybridTimestamp.zero
    /// Set when opening truncated a torn write.
    package private(set) var recovery: RecoveryReport?
    /// Set when opening found the newest segment's checkpoint unusable (damaged, or of another
    /// segment) and scanned the segment instead.
    package private(set) var ignoredCheckpoint: String?
    /// Whether opening had to scan the newest segment's frames (no usable checkpoint).
    package private(set) var scannedNewestSegment = false

    private var lock: LedgerLock?
    private var writer: (any WritableFile)?
    /// A failed write whose partial bytes could not be cut off yet: the next write cuts them
    /// first, so that nothing is ever appended after garbage.
    private var pendingCut: (path: String, size: Int)?
    private let decoder = LZ4FrameDecoder()

    package var localDevice: DeviceID { metadata.deviceID }
    package var segmentsPath: String { Path.join(directory, Self.segmentsDirectory) }
    package var recordCount: UInt64 { segments.last?.endPosition ?? 0 }
    package var eventCount: UInt64 { segments.reduce(0) { $0 + $1.summary.eventCount } }
    package var bytesOnDisk: Int { segments.reduce(0) { $0 + $1.fileSize } }

    private init(directory: String, metadata: LedgerMetadata, fileSystem: any FileSystem,
                 clock: any WallClock, lock: LedgerLock?) {
        self.directory = directory
        self.metadata = metadata
        self.fileSystem = fileSystem
        self.clock = clock
        self.lock = lock
    }

    deinit { close() }

    package func close() {
        writer?.close()
        writer = nil
        lock?.release()
        lock = nil
    }

    // MARK: - Creating and opening

    /// Creates a new ledger in `directory` (which must not exist, or be empty) and records the
    /// local device's name as its first record.
    package static func create(
        directory: String, deviceName: String, fileSystem: any FileSystem = PosixFileSystem(),
        clock: any WallClock = SystemClock(), useLock: Bool = true
    ) throws -> Ledger {
        try create(directory: directory, metadata: .new(deviceName: deviceName, clock: clock),
                   fileSystem: fileSystem, clock: clock, useLock: useLock)
    }

    /// Creates a ledger with given identities (reproducible fixtures and tests).
    package static func create(
        directory: String, metadata: LedgerMetadata, fileSystem: any FileSystem = PosixFileSystem(),
        clock: any WallClock = SystemClock(), useLock: Bool = true
    ) throws -> Ledger {
        let deviceName = metadata.deviceName
        let nameBytes = deviceName.utf8.count
        guard nameBytes > 0, nameBytes <= DeviceNameRecord.maximumNameBytes else {
            throw LedgerError(.usage, "a device name must be 1 to \(DeviceNameRecord.maximumNameBytes) bytes of UTF-8")
        }
        if fileSystem.directoryExists(directory) {
            let names = try fileSystem.listDirectory(directory)
            guard names.isEmpty || isInterruptedCreate(directory, names: names, fileSystem: fileSystem) else {
                let what = fileSystem.fileExists(Path.join(directory, LedgerMetadata.fileName)) ? "a ledger already exists" : "the directory is not empty"
                throw LedgerError(.usage, "cannot create a ledger in \(directory): \(what)")
            }
        } else if fileSystem.fileExists(directory) {
            throw LedgerError(.usage, "cannot create a ledger at \(directory): a file of that name exists")
        } else {
            try fileSystem.createDirectory(directory)
            try fileSystem.syncDirectory(Path.parent(of: directory))
        }
        let lock = useLock ? try LedgerLock.acquire(directory: directory) : nil
        let segments = Path.join(directory, segmentsDirectory)
        if fileSystem.directoryExists(segments) {
            // Left by an interrupted init (there is no ledger.json): start over.
            for name in try fileSystem.listDirectory(segments) { try fileSystem.removeFile(Path.join(segments, name)) }
        } else {
            try fileSystem.createDirectory(segments)
        }
        try fileSystem.syncDirectory(directory)
        let ledger = Ledger(directory: directory, metadata: metadata, fileSystem: fileSystem, clock: clock, lock: lock)
        let hlc = HybridTimestamp.next(after: .zero, wallClock: clock.nowMilliseconds())
        try ledger.append([.deviceName(DeviceNameRecord(device: metadata.deviceID, hlc: hlc, name: deviceName))])
        // ledger.json is the commit point: once it exists, the first segment (the device's name)
        // is durable, so a crash never leaves a ledger without its device's name.
        try fileSystem.writeAtomically(Path.join(directory, LedgerMetadata.fileName), metadata.encoded())
        return ledger
    }

    /// Whether `names` are only what an interrupted `create` leaves before ledger.json exists:
    /// the lock file, the metadata temporary, and a segments directory holding at most a first
    /// segment with only the device's name in it.
    private static func isInterruptedCreate(_ directory: String, names: [String], fileSystem: any FileSystem) -> Bool {
        let leftovers: Set<String> = ["LOCK", LedgerMetadata.fileName + ".tmp", segmentsDirectory]
        guard Set(names).isSubset(of: leftovers) else { return false }
        let segments = Path.join(directory, segmentsDirectory)
        guard names.contains(segmentsDirectory) else { return true }
        guard fileSystem.directoryExists(segments), let inside = try? fileSystem.listDirectory(segments) else { return false }
        // At most the first segment, holding nothing but the device's name: a ledger that lost its
        // ledger.json is not an interrupted init, and its events are never removed.
        guard inside.allSatisfy({ $0 == SegmentInfo.fileName(1) || $0 == ActiveSegmentCheckpoint.fileName(1) }) else { return false }
        guard let first = inside.first(where: { $0 == SegmentInfo.fileName(1) }) else { return true }
        guard let bytes = try? fileSystem.readFile(Path.join(segments, first)) else { return false }
        var onlyTheName = true
        let scanned = bytes.withUnsafeBytes { buffer in
            try? SegmentScanner(path: first, bytes: buffer, decoder: LZ4FrameDecoder()).scan(tolerateTornTail: true) { content, _, _ in
                try RecordStream.forEach(in: content) { view in if view.kind != .deviceName { onlyTheName = false } }
            }
        }
        return scanned != nil && onlyTheName
    }

    /// Opens an existing ledger, taking its lock and recovering a torn tail.
    package static func open(
        directory: String, fileSystem: any FileSystem = PosixFileSystem(),
        clock: any WallClock = SystemClock(), useLock: Bool = true
    ) throws -> Ledger {
        let (metadata, lock) = try LedgerMetadata.readAndLock(directory: directory, fileSystem: fileSystem, useLock: useLock)
        let ledger = Ledger(directory: directory, metadata: metadata, fileSystem: fileSystem, clock: clock, lock: lock)
        try ledger.load()
        return ledger
    }

    private func load() throws {
        let names = try fileSystem.listDirectory(segmentsPath)
        let numbers = names.compactMap(SegmentInfo.number(ofFileName:)).sorted()
        for (index, number) in numbers.enumerated() {
            let path = Path.join(segmentsPath, SegmentInfo.fileName(number))
            guard number == UInt32(index + 1) else {
                throw LedgerError(.corruption, "segment \(SegmentInfo.fileName(UInt32(index + 1))) is missing", file: path)
            }
            let isNewest = index == numbers.count - 1
            if let info = try readSealedSegment(number: number, path: path, mustBeSealed: !isNewest) {
                try account(info)
            } else if let info = try segmentFromCheckpoint(number: number, path: path) {
                try account(info)
            } else if let info = try recoverNewestSegment(number: number, path: path) {
                try account(info)
            }
        }
    }

    /// Reads a sealed segment's header and footer only. Returns `nil` for an unsealed newest
    /// segment, which must be scanned.
    private func readSealedSegment(number: UInt32, path: String, mustBeSealed: Bool) throws -> SegmentInfo? {
        let size = try fileSystem.fileSize(path)
        let headerBytes = try fileSystem.readFile(path, offset: 0, length: SegmentHeader.frameSize)
        let header: SegmentHeader
        switch headerBytes.withUnsafeBytes({ SegmentHeader.decode($0) }) {
        case .success(let h): header = h
        case .failure:
            if !mustBeSealed { return nil }
            throw LedgerError.corrupt("the segment header is damaged", file: path, offset: 0)
        }
        let tailLength = min(size, 1 << 16)
        var tail = try fileSystem.readFile(path, offset: size - tailLength, length: tailLength)
        var trailing = tail.withUnsafeBytes { SegmentFooter.decodeTrailing($0) }
        if case .absent = trailing, tailLength < size, tail.count >= 8 {
            // A footer longer than the probe (many devices): read exactly its length.
            let length = Int(tail.withUnsafeBytes { $0.loadLE(UInt32.self, at: $0.count - 8) }) + 8
            if length > tailLength && length <= size {
                tail = try fileSystem.readFile(path, offset: size - length, length: length)
                trailing = tail.withUnsafeBytes { SegmentFooter.decodeTrailing($0) }
            }
        }
        switch trailing {
        case .sealed(let summary, let footerNumber, _):
            try checkHeader(header, number: number, path: path)
            guard footerNumber == number else {
                throw LedgerError.corrupt("the segment footer belongs to segment \(footerNumber)", file: path, offset: size - tail.count)
            }
            return SegmentInfo(number: number, path: path, header: header, summary: summary, sealed: true, fileSize: size)
        case .damaged(let frameOffset):
            if !mustBeSealed { return nil }
            throw LedgerError.corrupt("the segment footer is damaged", file: path, offset: size - tail.count + frameOffset)
        case .absent:
            if !mustBeSealed { return nil }
            throw LedgerError.corrupt("a segment other than the newest is not sealed", file: path, offset: size)
        }
    }

    private func checkHeader(_ header: SegmentHeader, number: UInt32, path: String) throws {
        guard header.segmentNumber == number else {
            throw LedgerError.corrupt("the segment header says it is segment \(header.segmentNumber)", file: path, offset: 0)
        }
        guard header.ledgerID == metadata.ledgerIDBytes else {
            throw LedgerError.corrupt("the segment belongs to another ledger", file: path, offset: 0)
        }
        let expected = segments.last?.endPosition ?? 0
        guard header.firstRecordPosition == expected else {
            throw LedgerError.corrupt("the segment starts at record \(header.firstRecordPosition), expected \(expected)", file: path, offset: 0)
        }
    }

    /// The newest, unsealed segment as its checkpoint describes it, without scanning it; `nil`
    /// (scan instead) unless the checkpoint is intact and covers exactly the file as it is.
    private func segmentFromCheckpoint(number: UInt32, path: String) throws -> SegmentInfo? {
        let checkpointPath = Path.join(segmentsPath, ActiveSegmentCheckpoint.fileName(number))
        guard fileSystem.fileExists(checkpointPath) else { return nil }
        let checkpoint: ActiveSegmentCheckpoint
        switch try fileSystem.readFile(checkpointPath).withUnsafeBytes({ ActiveSegmentCheckpoint.decode($0) }) {
        case .success(let decoded): checkpoint = decoded
        case .failure(let fault):
            ignoredCheckpoint = "\(checkpointPath) at offset \(fault.offset): \(fault.reason)"
            return nil
        }
        guard checkpoint.segmentNumber == number else {
            ignoredCheckpoint = "\(checkpointPath): it describes segment \(checkpoint.segmentNumber)"
            return nil
        }
        // A different length or tail means appends or a crash came after it: stale, not damaged.
        let size = try fileSystem.fileSize(path)
        guard size == checkpoint.coveredLength, size >= SegmentHeader.frameSize else { return nil }
        let tail = ActiveSegmentCheckpoint.tailRange(length: size)
        guard CRC32C.checksum(try fileSystem.readFile(path, offset: tail.offset, length: tail.length)) == checkpoint.tailChecksum
        else { return nil }
        let headerBytes = try fileSystem.readFile(path, offset: 0, length: SegmentHeader.frameSize)
        guard case .success(let header) = headerBytes.withUnsafeBytes({ SegmentHeader.decode($0) }),
              (try? checkHeader(header, number: number, path: path)) != nil
        else { return nil }
        return SegmentInfo(number: number, path: path, header: header, summary: checkpoint.summary, sealed: false, fileSize: size)
    }

    private func checkpointPath(of segment: UInt32) -> String {
        Path.join(segmentsPath, ActiveSegmentCheckpoint.fileName(segment))
    }

    /// Replaces the active segment's checkpoint after a durable append. Best effort: the batch is
    /// already acknowledged, and a missing or partial checkpoint only makes the next open scan.
    private func writeCheckpoint(of active: SegmentInfo) {
        let path = checkpointPath(of: active.number)
        do {
            let tail = ActiveSegmentCheckpoint.tailRange(length: active.fileSize)
            let tailBytes = try fileSystem.readFile(active.path, offset: tail.offset, length: tail.length)
            let bytes = ActiveSegmentCheckpoint(segmentNumber: active.number, coveredLength: active.fileSize,
                                                tailChecksum: CRC32C.checksum(tailBytes), summary: active.summary).encoded()
            let exists = fileSystem.fileExists(path)
            if exists { try fileSystem.truncateFile(path, to: 0) }
            let file = try fileSystem.openForAppend(path, create: !exists)
            defer { file.close() }
            try bytes.withUnsafeBytes { (buffer) throws in try file.write(buffer) }
        } catch {
            try? fileSystem.removeFile(path)
        }
    }

    private func removeCheckpoint(of segment: UInt32) {
        let path = checkpointPath(of: segment)
        if fileSystem.fileExists(path) { try? fileSystem.removeFile(path) }
    }

    /// Scans the newest, unsealed segment and truncates a torn tail, saving the torn bytes to
    /// `NNNNNNNN.seg.<offset>.torn` first. Returns `nil` if the segment held nothing usable and
    /// was moved aside whole.
    private func recoverNewestSegment(number: UInt32, path: String) throws -> SegmentInfo? {
        scannedNewestSegment = true
        let bytes = try fileSystem.readFile(path)
        var summary = SegmentSummary()
        let outcome = try bytes.withUnsafeBytes { (buffer) throws -> SegmentScanner.Outcome in
            let scanner = SegmentScanner(path: path, bytes: buffer, decoder: decoder)
            return try scanner.scan(tolerateTornTail: true) { (content, frameOffset, _) throws in
                summary.addFrame(rawBytes: content.count)
                try Self.forEachRecord(in: content, path: path, frameOffset: frameOffset) { summary.add($0) }
            }
        }
        switch outcome {
        case .clean(let header, let footerOffset):
            try checkHeader(header, number: number, path: path)
            return SegmentInfo(number: number, path: path, header: header, summary: summary,
                               sealed: footerOffset != nil, fileSize: bytes.count)
        case .torn(let header, let offset, let reason):
            let saved = path + ".\(offset).torn"
            if fileSystem.fileExists(saved) { try fileSystem.removeFile(saved) }
            let file = try fileSystem.openForAppend(saved, create: true)
            try bytes[offset...].withUnsafeBytes { (torn) throws in try file.write(torn) }
            try file.sync()
            file.close()
            try fileSystem.syncDirectory(segmentsPath)
            recovery = RecoveryReport(segment: path, offset: offset, removedBytes: bytes.count - offset,
                                      savedTo: saved, reason: reason)
            removeCheckpoint(of: number)
            guard let header else {
                try fileSystem.removeFile(path)
                try fileSystem.syncDirectory(segmentsPath)
                return nil
            }
            try checkHeader(header, number: number, path: path)
            try fileSystem.truncateFile(path, to: offset)
            return SegmentInfo(number: number, path: path, header: header, summary: summary, sealed: false, fileSize: offset)
        }
    }

    /// Folds a segment's summary into the ledger state, checking that every device's seqs
    /// continue where the previous segments left them.
    private func account(_ info: SegmentInfo) throws {
        for range in info.summary.deviceRanges {
            let held = versionVector[range.device] ?? 0
            guard range.firstSeq == held + 1, range.lastSeq >= range.firstSeq else {
                throw LedgerError.corrupt("device \(range.device) jumps from seq \(held) to \(range.firstSeq)", file: info.path, offset: 0)
            }
            versionVector[range.device] = range.lastSeq
        }
        for name in info.summary.deviceNames where name.hlc >= (deviceNames[name.device]?.hlc ?? .zero) {
            deviceNames[name.device] = name
        }
        if !info.summary.isEmpty { lastHLC = max(lastHLC, info.summary.maxHLC) }
        segments.append(info)
    }

    // MARK: - Appending

    /// Appends local station edits as one durable batch, giving each the next seq and hlc.
    /// Returns the events as written.
    @discardableResult
    package func appendLocal(_ drafts: [StationEditDraft]) throws -> [StationEdit] {
        var seq = versionVector[localDevice] ?? 0
        var hlc = lastHLC
        let now = clock.nowMilliseconds()
        var events: [StationEdit] = []
        events.reserveCapacity(drafts.count)
        for draft in drafts {
            try Self.validate(draft)
            seq += 1
            let stamp: HybridTimestamp
            if let fixed = draft.hlc {
                stamp = fixed
            } else {
                hlc = .next(after: hlc, wallClock: now)
                stamp = hlc
            }
            events.append(StationEdit(id: EventID(device: localDevice, seq: seq), hlc: stamp, station: draft.station,
                                      compDate: draft.compDate, memo: draft.memo, origin: draft.origin))
        }
        try append(events.map { .stationEdit($0) })
        return events
    }

    /// Records that catalogue `version` was applied.
    @discardableResult
    package func appendCatalogVersion(_ version: UInt32) throws -> CatalogVersionEvent {
        let event = CatalogVersionEvent(
            id: EventID(device: localDevice, seq: (versionVector[localDevice] ?? 0) + 1),
            hlc: .next(after: lastHLC, wallClock: clock.nowMilliseconds()), version: version)
        try append([.catalogVersion(event)])
        return event
    }

    /// Appends records received from another replica, in the order given. Every event must
    /// continue its device's seq exactly (no gaps, no repeats); the caller removes events
    /// already held. The clock advances past every received hlc.
    package func appendReplicated(_ records: [LedgerRecord]) throws {
        try append(records[...], checking: true)
    }

    /// The same for a slice of a larger array (no copy of the batch).
    package func appendReplicated(_ records: ArraySlice<LedgerRecord>) throws {
        try append(records, checking: true)
    }

    package static func validate(_ draft: StationEditDraft) throws {
        try validate(station: draft.station, compDate: draft.compDate, memo: draft.memo)
    }

    package static func validate(_ e: StationEdit) throws {
        try validate(station: e.station, compDate: e.compDate, memo: e.memo)
    }

    private static func validate(station: UInt32, compDate: CompletionDate?, memo: String?) throws {
        guard station > 0 else { throw LedgerError(.badInput, "station 0 is not a station id") }
        guard compDate != nil || memo != nil else {
            throw LedgerError(.badInput, "an edit must set a completion date, a memo or both")
        }
        if let memo, memo.utf8.count > StationEdit.maximumMemoBytes {
            throw LedgerError(.badInput, "the memo is \(memo.utf8.count) bytes of UTF-8; the limit is \(StationEdit.maximumMemoBytes)")
        }
    }

    /// Encodes `records` into frames of at most 4 MiB of content, writes them to the active
    /// segment (creating one if needed), fsyncs once, and seals the segment if it is full.
    /// On failure the segment is cut back to its previous length: nothing partial stays.
    package func append(_ records: [LedgerRecord]) throws {
        try append(records[...], checking: false)
    }

    /// The append itself. One pass over `records` validates (when `checking`), encodes, and
    /// builds the segment summary and version-vector changes; they take effect only once the
    /// batch is durable. (Each pass over `[LedgerRecord]` copies every enum value: three passes
    /// cost about a third of a batched append.)
    private func append(_ records: ArraySlice<LedgerRecord>, checking: Bool) throws {
        guard !records.isEmpty else { return }
        let createsSegment = segments.last.map { $0.sealed } ?? true
        var summary = createsSegment ? SegmentSummary() : segments[segments.count - 1].summary
        var frames: [UInt8] = []
        var encoder = RecordEncoder(reservingCapacity: min(LZ4Frame.maximumContentSize, records.count * 48))
        func flush() {
            encoder.bytes.withUnsafeBytes { LZ4Frame.compress($0, appendingTo: &frames) }
            summary.addFrame(rawBytes: encoder.bytes.count)
            encoder.removeAll()
        }
        // Seqs are checked and recorded per run of one device's events: one dictionary lookup
        // per run, not per event.
        var seqs: [DeviceID: UInt64] = [:]
        var runDevice: DeviceID?
        var runSeq: UInt64 = 0
        var names: [DeviceNameRecord] = []
        var maxHLC = lastHLC
        func account(_ id: EventID) throws {
            if id.device != runDevice {
                if let device = runDevice { seqs[device] = runSeq }
                runDevice = id.device
                runSeq = seqs[id.device] ?? versionVector[id.device] ?? 0
            }
            if checking && id.seq != runSeq + 1 {
                throw LedgerError(.conflict, "event \(id) does not continue device \(id.device) (expected seq \(runSeq + 1))")
            }
            runSeq = id.seq
        }
        for record in records {
            let size = RecordEncoder.encodedSize(of: record)
            if encoder.bytes.count + size > LZ4Frame.maximumContentSize { flush() }
            switch record {
            case .stationEdit(let e):
                if checking { try Self.validate(e) }
                try account(e.id)
                encoder.append(e)
                summary.addEvent(hlc: e.hlc, device: e.id.device, seq: e.id.seq)
                if e.hlc > maxHLC { maxHLC = e.hlc }
            case .deviceName(let name):
                encoder.append(name)
                summary.add(record)
                names.append(name)
                if name.hlc > maxHLC { maxHLC = name.hlc }
            case .catalogVersion, .knowledgeMark:
                try account(record.eventID!)
                encoder.append(record)
                summary.add(record)
                if record.hlc > maxHLC { maxHLC = record.hlc }
            }
        }
        if let device = runDevice { seqs[device] = runSeq }
        if encoder.recordCount > 0 { flush() }

        try cutPending()
        if createsSegment {
            let number = UInt32(segments.count + 1)
            let path = Path.join(segmentsPath, SegmentInfo.fileName(number))
            let header = SegmentHeader(segmentNumber: number, ledgerID: metadata.ledgerIDBytes, firstRecordPosition: recordCount)
            let file = try fileSystem.openForAppend(path, create: true)
            do {
                try header.encoded().withUnsafeBytes { (b) throws in try file.write(b) }
                try frames.withUnsafeBytes { (b) throws in try file.write(b) }
                try file.sync()
                try fileSystem.syncDirectory(segmentsPath)
            } catch {
                file.close()
                try? fileSystem.removeFile(path)
                throw error
            }
            segments.append(SegmentInfo(number: number, path: path, header: header, summary: SegmentSummary(),
                                        sealed: false, fileSize: SegmentHeader.frameSize))
            writer = file
        } else {
            let active = segments[segments.count - 1]
            if writer == nil { writer = try fileSystem.openForAppend(active.path, create: false) }
            let file = writer!
            do {
                try frames.withUnsafeBytes { (b) throws in try file.write(b) }
                try file.sync()
            } catch {
                file.close()
                writer = nil
                cutBack(active)
                throw error
            }
        }
        // Durable: the batch is acknowledged, so its effects take hold.
        let index = segments.count - 1
        segments[index].fileSize += frames.count
        segments[index].summary = summary
        for (device, seq) in seqs { versionVector[device] = seq }
        for name in names where name.hlc >= (deviceNames[name.device]?.hlc ?? .zero) {
            deviceNames[name.device] = name
        }
        lastHLC = maxHLC
        // If the footer cannot be written (a full disk), the segment stays open and sealing is
        // retried after the next append.
        if segments[index].fileSize >= rollThreshold { try? sealActiveSegment() }
        if !segments[index].sealed { writeCheckpoint(of: segments[index]) }
    }

    /// Cuts the active segment back to its last durable length after a failed write; if even that
    /// fails, the next write retries it before writing anything.
    private func cutBack(_ active: SegmentInfo) {
        do { try fileSystem.truncateFile(active.path, to: active.fileSize) } catch {
            pendingCut = (active.path, active.fileSize)
        }
    }

    private func cutPending() throws {
        guard let cut = pendingCut else { return }
        try fileSystem.truncateFile(cut.path, to: cut.size)
        pendingCut = nil
    }

    /// Writes the footer of the active segment; the next append starts a new segment.
    package func sealActiveSegment() throws {
        guard let active = segments.last, !active.sealed else { return }
        try cutPending()
        if writer == nil { writer = try fileSystem.openForAppend(active.path, create: false) }
        let footer = SegmentFooter.encode(active.summary, segmentNumber: active.number)
        do {
            try footer.withUnsafeBytes { (b) throws in try writer!.write(b) }
            try writer!.sync()
        } catch {
            writer?.close()
            writer = nil
            cutBack(active)
            throw error
        }
        writer?.close()
        writer = nil
        segments[segments.count - 1].sealed = true
        segments[segments.count - 1].fileSize += footer.count
        removeCheckpoint(of: active.number)
    }

    /// Advances the clock past a received hlc without appending (used when a peer's events
    /// are seen).
    package func observe(_ hlc: HybridTimestamp) {
        lastHLC = max(lastHLC, hlc)
    }

    /// The hlc the next local event would get.
    package func nextLocalHLC() -> HybridTimestamp {
        .next(after: lastHLC, wallClock: clock.nowMilliseconds())
    }

    // MARK: - Reading

    /// Calls `body` with every record at log position ≥ `position`, in log order, verifying
    /// every frame's checksums. Memory stays bounded by one segment file.
    package func forEachRecord(
        from position: UInt64 = 0, _ body: (RecordView, UInt64) throws -> Void
    ) throws {
        for segment in segments where segment.endPosition > position {
            let bytes = try fileSystem.readFile(segment.path)
            var index = segment.header.firstRecordPosition
            try bytes.withUnsafeBytes { (buffer) throws in
                let scanner = SegmentScanner(path: segment.path, bytes: buffer, decoder: decoder)
                _ = try scanner.scan(tolerateTornTail: false) { (content, frameOffset, _) throws in
                    try Self.forEachRecord(in: content, path: segment.path, frameOffset: frameOffset) { view throws in
                        defer { index += 1 }
                        if index >= position {
                            do { try body(view, index) } catch let error as LedgerError { throw error } catch {
                                throw LedgerError(.io, "\(error)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// Runs `RecordStream.forEach`, turning a malformed record into a corruption error that
    /// names the file and the frame.
    static func forEachRecord(
        in content: UnsafeRawBufferPointer, path: String, frameOffset: Int,
        _ body: (RecordView) throws -> Void
    ) throws {
        do {
            try RecordStream.forEach(in: content) { view in try body(view) }
        } catch let fault as RecordStream.Fault {
            throw LedgerError.corrupt("a record at content offset \(fault.offset) of the frame is malformed: \(fault.reason)",
                           file: path, offset: frameOffset)
        } catch let error as LedgerError {
            throw error
        } catch {
            throw LedgerError(.io, "\(error)")
        }
    }

    /// Records of every kind, materialised (allocating; for small logs and tests).
    package func allRecords() throws -> [LedgerRecord] {
        var records: [LedgerRecord] = []
        try forEachRecord { view, _ in records.append(view.record) }
        return records
    }
}
