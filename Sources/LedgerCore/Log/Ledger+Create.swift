extension Ledger {
    /// Creates a new ledger in `directory` (which must not exist, or be empty) and records the
    /// local device's name as its first record.
    package static func create(
        directory: String, deviceName: String, fileSystem: any FileSystem = PosixFileSystem(),
        clock: any WallClock = SystemClock(), useLock: Bool = true
    ) throws -> Ledger {
        try create(directory: directory, metadata: .new(deviceName: deviceName, clock: clock),
                   fileSystem: fileSystem, clock: clock, useLock: useLock)
    }

    /// Creates an empty ledger for an end-to-end encrypted account's sealed records
    /// (`LedgerRecords.sealed`), which the server keeps without the key; `ownerName` names the
    /// ledger's keeper in `ledger.json` only.
    package static func createSealed(
        directory: String, ownerName: String, fileSystem: any FileSystem = PosixFileSystem(),
        clock: any WallClock = SystemClock(), useLock: Bool = true
    ) throws -> Ledger {
        var metadata = LedgerMetadata.new(deviceName: ownerName, clock: clock)
        metadata.records = .sealed
        return try create(directory: directory, metadata: metadata, fileSystem: fileSystem, clock: clock, useLock: useLock)
    }

    /// Creates a ledger with given identities (reproducible fixtures and tests).
    package static func create(
        directory: String, metadata: LedgerMetadata, fileSystem: any FileSystem = PosixFileSystem(),
        clock: any WallClock = SystemClock(), useLock: Bool = true
    ) throws -> Ledger {
        // Every segment of a new ledger is created with its watermark first (§5b).
        var metadata = metadata
        metadata.watermarkedFrom = 1
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
        let lock = useLock ? try fileSystem.lockDirectory(directory, request: .exclusive) : nil
        let segments = Path.join(directory, segmentsDirectory)
        if fileSystem.directoryExists(segments) {
            // Left by an interrupted init (there is no ledger.json): start over.
            for name in try fileSystem.listDirectory(segments) { try fileSystem.removeFile(Path.join(segments, name)) }
        } else {
            try fileSystem.createDirectory(segments)
        }
        try fileSystem.syncDirectory(directory)
        let ledger = Ledger(directory: directory, metadata: metadata, fileSystem: fileSystem, clock: clock, lock: lock)
        if metadata.recordForm == .plain {
            let hlc = HybridTimestamp.next(after: .zero, wallClock: clock.nowMilliseconds())
            try ledger.append([.deviceName(DeviceNameRecord(device: metadata.deviceID, hlc: hlc, name: deviceName))])
        }
        // ledger.json is the commit point: once it exists, the first segment (the device's name)
        // is durable, so a crash never leaves a ledger without its device's name. A sealed
        // ledger has no record of its own (its names are the devices', sealed): it starts empty.
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
        let sideFiles = [SegmentInfo.fileName(1), ActiveSegmentCheckpoint.fileName(1), SegmentWatermark.fileName(1),
                         SegmentWatermark.fileName(1) + ".tmp"]
        guard inside.allSatisfy(sideFiles.contains) else { return false }
        guard let first = inside.first(where: { $0 == SegmentInfo.fileName(1) }) else { return true }
        guard let bytes = try? fileSystem.readFile(Path.join(segments, first)) else { return false }
        // No ledger.json yet, so no ledger id to hold the header to.
        let reader = SegmentReader(path: first, policy: .tolerateTornTail,
                                   expectation: .init(number: 1, ledgerID: nil, firstRecordPosition: 0, mustBeSealed: false))
        var onlyTheName = true
        let read = bytes.withUnsafeBytes { buffer in
            try? reader.read(buffer) { view, _ in
                onlyTheName = view.kind == .deviceName
                return onlyTheName ? .continue : .stop
            }
        }
        return read != nil && onlyTheName
    }
}
