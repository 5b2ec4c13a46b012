import LedgerCore
import LedgerTestSupport
import Testing

/// The crash model itself: if these rules are wrong, every power-loss test proves nothing.
@Suite struct CrashableFileSystemTests {
    private func write(_ file: any WritableFile, _ text: String) throws {
        try Array(text.utf8).withUnsafeBytes { try file.write($0) }
    }

    private func text(_ fs: CrashableFileSystem, _ path: String) throws -> String {
        String(decoding: try fs.readFile(path), as: UTF8.self)
    }

    @Test func unsyncedBytesAreLostAndSyncedBytesSurvive() throws {
        let fs = CrashableFileSystem()
        try fs.createDirectory("/d")
        try fs.syncDirectory("/")
        let file = try fs.openForAppend("/d/f", create: true)
        try fs.syncDirectory("/d")
        try write(file, "durable")
        try file.sync()
        try write(file, " volatile")
        #expect(try text(fs, "/d/f") == "durable volatile")
        #expect(try text(fs.image(), "/d/f") == "durable")
        #expect(try text(fs.image(.powerLossKeepingData), "/d/f") == "durable volatile")
        #expect(try text(fs.image(.processKill), "/d/f") == "durable volatile")
    }

    @Test func aRandomPrefixOfUnsyncedAppendsMaySurvive() throws {
        let fs = CrashableFileSystem()
        let file = try fs.openForAppend("/f", create: true)
        try fs.syncDirectory("/")
        try write(file, "abc")
        try file.sync()
        try write(file, "defghijklmnopqrstuvwxyz")
        var seen = Set<String>()
        for seed in 0..<200 as Range<UInt64> {
            let survived = try text(fs.image(.powerLoss(keepingRandomPrefix: seed)), "/f")
            #expect("abcdefghijklmnopqrstuvwxyz".hasPrefix(survived) && survived.hasPrefix("abc"))
            seen.insert(survived)
        }
        #expect(seen.count > 10, "the prefixes should vary with the seed")
        #expect(try text(fs.image(.powerLoss(keepingRandomPrefix: 7)), "/f")
                == text(fs.image(.powerLoss(keepingRandomPrefix: 7)), "/f"))
    }

    @Test func entriesVanishUnlessTheirDirectoryWasSynced() throws {
        let fs = CrashableFileSystem()
        let file = try fs.openForAppend("/new", create: true)
        try write(file, "x")
        try file.sync()
        try fs.createDirectory("/dir")
        #expect(!fs.image().fileExists("/new"), "a synced file whose entry was never synced vanishes")
        #expect(!fs.image().directoryExists("/dir"))
        #expect(fs.image(.processKill).fileExists("/new"))
        try fs.syncDirectory("/")
        #expect(try text(fs.image(), "/new") == "x")
        #expect(fs.image().directoryExists("/dir"))
    }

    @Test func renameAndRemoveNeedADirectorySyncToLast() throws {
        let fs = CrashableFileSystem()
        let file = try fs.openForAppend("/a", create: true)
        try write(file, "content")
        try file.sync()
        try fs.syncDirectory("/")
        try fs.rename("/a", to: "/b")
        var image = fs.image()
        #expect(image.fileExists("/a") && !image.fileExists("/b"))
        try fs.syncDirectory("/")
        image = fs.image()
        #expect(!image.fileExists("/a"))
        #expect(try text(image, "/b") == "content")
        try fs.removeFile("/b")
        #expect(fs.image().fileExists("/b"), "an unsynced unlink is undone by a crash")
        try fs.syncDirectory("/")
        #expect(!fs.image().fileExists("/b"))
    }

    @Test func anArmedCrashStopsEveryLaterOperation() throws {
        let fs = CrashableFileSystem()
        fs.crash(afterOperations: 2)
        let file = try fs.openForAppend("/f", create: true)   // 1
        try write(file, "one")                                 // 2
        #expect(throws: LedgerError.self) { try file.sync() }
        #expect(fs.hasCrashed)
        #expect(throws: LedgerError.self) { try fs.syncDirectory("/") }
        #expect(!fs.fileExists("/f"))
        #expect(fs.operationCount == 2)
        #expect(!fs.image().fileExists("/f"))
        #expect(try text(fs.image(.processKill), "/f") == "one")
    }

    @Test(arguments: [InjectedFault.Code.noSpace, .ioError])
    func injectedFaultsFailTheNthOperation(code: InjectedFault.Code) throws {
        let fs = CrashableFileSystem()
        let file = try fs.openForAppend("/f", create: true)
        try fs.syncDirectory("/")
        fs.inject(InjectedFault(.write, occurrence: 2, code: code, partialBytes: 2))
        try write(file, "first")
        let error = try #require(throws: LedgerError.self) { try write(file, "second") }
        #expect(error.category == .io)
        #expect(error.message == (code == .noSpace ? "cannot write /f: the disk is full" : "cannot write /f: input/output error"))
        #expect(try text(fs, "/f") == "firstse", "a short write leaves its first bytes")
        try write(file, "third")
        fs.inject(InjectedFault(.sync, code: code))
        #expect(throws: LedgerError.self) { try file.sync() }
        #expect(try text(fs.image(.powerLoss), "/f").isEmpty, "a failed fsync makes nothing durable")
        try file.sync()
        #expect(try text(fs.image(.powerLoss), "/f") == "firstsethird")
    }

    @Test func aFullDiskTakesWhatFitsThenRefuses() throws {
        let fs = CrashableFileSystem()
        let file = try fs.openForAppend("/f", create: true)
        try write(file, "12345")
        fs.freeSpace = 3
        #expect(throws: LedgerError.self) { try write(file, "6789") }
        #expect(try text(fs, "/f") == "12345678")
        #expect(fs.freeSpace == 0)
        try fs.truncateFile("/f", to: 2)
        #expect(fs.freeSpace == 6)
        try write(file, "ab")
        fs.freeSpace = nil
        try write(file, String(repeating: "z", count: 100))
        #expect(try fs.fileSize("/f") == 104)
    }

    @Test func snapshotsCompareWholeTrees() throws {
        let fs = CrashableFileSystem()
        try fs.createDirectory("/l")
        let file = try fs.openForAppend("/l/x", create: true)
        try write(file, "x")
        let before = fs.snapshot(under: "/l")
        #expect(before == ["l/": [], "l/x": Array("x".utf8)])
        fs.corrupt("/l/x", at: 0, xor: 0x01)
        #expect(fs.snapshot(under: "/l") != before)
        #expect(fs.clone().snapshot() == fs.snapshot())
    }
}
