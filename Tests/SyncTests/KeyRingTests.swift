import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import SyncClient
import Testing

/// A device's key file (Schemas/encryption.md §11 "The device's key file"): written atomically
/// and owner-only, read back as written, refused when malformed or readable by others; and the
/// server's key chain unlocked from the newest key down.
@Suite("A device's key ring")
struct KeyRingTests {
    static let owner = PosixFileSystem(ownerOnly: true)

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("a ring saved in a real directory loads back as it was, in a 0600 file of one line per epoch")
    func saveAndLoad() throws {
        let directory = try TemporaryDirectory("keyring")
        #expect(try KeyRing.load(ledgerDirectory: directory.path, fileSystem: Self.owner) == nil, "no file: no ring")
        let first = DataKey.random(epoch: 1), second = DataKey.random(epoch: 2)
        let ring = KeyRing(first).adding(second).markingKitRehearsed()
        try ring.save(ledgerDirectory: directory.path, fileSystem: Self.owner)
        let path = directory.sub("encryption-keys")
        #expect(try Self.mode(path) == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "1 \(Base64URL.encode(first.bytes))\n2 \(Base64URL.encode(second.bytes)) rehearsed\n")
        #expect(text.split(separator: "\n").allSatisfy { $0.split(separator: " ")[1].count == 43 })
        let loaded = try #require(try KeyRing.load(ledgerDirectory: directory.path, fileSystem: Self.owner))
        #expect(loaded == ring)
        #expect(loaded.current == second && loaded.key(epoch: 1) == first && loaded.key(epoch: 3) == nil)
        #expect(loaded.isKitRehearsed)
        // A third epoch's key: its kit is not rehearsed yet.
        let third = loaded.adding(DataKey.random(epoch: 3))
        #expect(!third.isKitRehearsed && third.current.epoch == 3)
        try third.save(ledgerDirectory: directory.path, fileSystem: Self.owner)
        #expect(try KeyRing.load(ledgerDirectory: directory.path, fileSystem: Self.owner) == third)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"), "no temporary left behind")
    }

    @Test("a key file others may read is refused with a sentence telling to chmod 600", arguments: [0o644, 0o640, 0o604, 0o620])
    func exposedFileRefused(mode: Int) throws {
        let directory = try TemporaryDirectory("keyring")
        try KeyRing(DataKey.random(epoch: 1)).save(ledgerDirectory: directory.path, fileSystem: Self.owner)
        let path = directory.sub("encryption-keys")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        do {
            _ = try KeyRing.load(ledgerDirectory: directory.path, fileSystem: Self.owner)
            Issue.record("a key file of mode \(String(mode, radix: 8)) was read")
        } catch let error as EncryptionError {
            #expect(error.cause == .exposedKeyFile(mode: UInt32(mode)))
            #expect(error.message == "\(path) can be read or written by others than its owner (mode 0\(String(mode, radix: 8))), and it holds the keys to every record of the account: run `chmod 600 \(path)`")
            #expect(error.ledgerError.category == .permission)
        }
        // Once chmod 600 is done, it reads.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try KeyRing.load(ledgerDirectory: directory.path, fileSystem: Self.owner) != nil)
    }

    @Test("a ring saved by a file system that is not owner-only is refused after the write")
    func writtenExposedRefused() throws {
        let directory = try TemporaryDirectory("keyring")
        #expect(throws: EncryptionError.self) {
            try KeyRing(DataKey.random(epoch: 1)).save(ledgerDirectory: directory.path, fileSystem: PosixFileSystem())
        }
    }

    static let key = "1 " + Base64URL.encode([UInt8](repeating: 7, count: 32))
    static let malformedFiles: [(String, Int, String)] = [
        ("", 1, "the key file holds no key"),
        ("\n", 1, "the line is not an epoch, one space and a key"),
        ("1\n", 1, "the line is not an epoch, one space and a key"),
        (key + "\n" + key + "\n", 2, "epoch 1 comes after epoch 1"),
        ("2 " + key.dropFirst(2) + "\n" + key + "\n", 2, "epoch 1 comes after epoch 2"),
        ("0 " + key.dropFirst(2) + "\n", 1, "\"0\" is not an epoch from 1 to 4294967295"),
        ("01 " + key.dropFirst(2) + "\n", 1, "\"01\" is not an epoch from 1 to 4294967295"),
        ("4294967296 " + key.dropFirst(2) + "\n", 1, "\"4294967296\" is not an epoch from 1 to 4294967295"),
        (key + "  \n", 1, "the line is not an epoch, one space and a key"),
        (key + " rehearsd\n", 1, "the line is not an epoch, one space and a key"),
        (key + "=\n", 1, "the key of epoch 1 is not 32 bytes in base64url"),
        (String(key.dropLast()) + "\n", 1, "the key of epoch 1 is not 32 bytes in base64url"),
        (String(key.dropLast()) + "+\n", 1, "the key of epoch 1 is not 32 bytes in base64url"),
        // 43 characters whose last one has a non-zero unused bit: a second spelling of a key.
        (String(key.dropLast()) + "d\n", 1, "the key of epoch 1 is not 32 bytes in base64url"),
        (key + "\r\n", 1, "the key of epoch 1 is not 32 bytes in base64url"),
        (key + "\n\n", 2, "the line is not an epoch, one space and a key"),
    ]

    @Test("a malformed key file is refused naming the file and the line", arguments: malformedFiles)
    func malformedRefused(file: String, line: Int, why: String) throws {
        let directory = try TemporaryDirectory("keyring")
        let path = directory.sub("encryption-keys")
        try Self.owner.writeAtomically(path, Array(file.utf8))
        do {
            _ = try KeyRing.load(ledgerDirectory: directory.path, fileSystem: Self.owner)
            Issue.record("\(file.debugDescription) was read")
        } catch let error as EncryptionError {
            #expect(error.cause == .malformedKeyFile(line: line))
            #expect(error.message.hasPrefix("\(path), line \(line): \(why); each line is `EPOCH KEY`"))
            #expect(error.file == path)
        }
    }

    @Test("a file without its last line feed reads, and the key's base64url round-trips")
    func lenientEnd() throws {
        let ring = try KeyRing.decode(Array(Self.key.utf8), file: "f")
        #expect(ring.current.epoch == 1 && ring.current.bytes == [UInt8](repeating: 7, count: 32))
        #expect(Base64URL.encode(ring.current.bytes) == String(Self.key.dropFirst(2)))
        for count in 0..<40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test("a save interrupted at any point leaves the old ring or the new one, never a damaged file")
    func atomicSave() throws {
        let old = KeyRing(DataKey.random(epoch: 1))
        let new = old.adding(DataKey.random(epoch: 2)).markingKitRehearsed()
        var point = 0
        var sawOld = false, sawNew = false
        while true {
            let fileSystem = CrashableFileSystem()
            try fileSystem.createDirectoryDurably("/ledger")
            try old.save(ledgerDirectory: "/ledger", fileSystem: fileSystem)
            let start = fileSystem.operationCount
            fileSystem.crash(afterOperations: start + point)
            let finished = (try? new.save(ledgerDirectory: "/ledger", fileSystem: fileSystem)) != nil
            // A power loss (with none, some or all unsynced bytes on the disk) and a killed process.
            let crashes: [CrashOptions] = [.powerLoss, .powerLoss(keepingRandomPrefix: UInt64(point)), .powerLossKeepingData, .processKill]
            for crash in crashes {
                let loaded = try? KeyRing.load(ledgerDirectory: "/ledger", fileSystem: fileSystem.image(crash))
                #expect(loaded == old || loaded == new, "\(crash) after \(point) operations: \(String(describing: loaded))")
                sawOld = sawOld || loaded == old
                sawNew = sawNew || loaded == new
                if finished && !fileSystem.hasCrashed { #expect(loaded == new, "a save that returned is durable (\(crash))") }
            }
            if finished && !fileSystem.hasCrashed { break }
            point += 1
        }
        #expect(sawOld && sawNew && point >= 4)
    }

    /// Epochs 1…3 and the chain a server keeps of them: e wrapped under e + 1's chain key.
    static func chain() -> (keys: [DataKey], chain: [UInt32: [UInt8]]) {
        let keys = (1...3).map { DataKey.random(epoch: UInt32($0)) }
        var chain: [UInt32: [UInt8]] = [:]
        for index in 0..<2 {
            chain[keys[index].epoch] = KeyWrap.wrap(keys[index], under: keys[index + 1].chainKey, purpose: .chain)
        }
        return (keys, chain)
    }

    @Test("a device holding only the newest of 3 epochs' keys unlocks both older ones from the chain")
    func unlockChain() throws {
        let (keys, chain) = Self.chain()
        var ring = KeyRing(keys[2])
        #expect(try ring.unlockChain(chain) == [2, 1])
        #expect(ring.keys == keys)
        #expect(try ring.unlockChain(chain) == [], "held keys are kept")
        // An entry for epoch 0, which no key has, is passed over.
        var fromOne = KeyRing(keys[0])
        #expect(try fromOne.unlockChain([0: KeyWrap.wrap(DataKey.random(epoch: 0), under: keys[0].chainKey, purpose: .chain)]) == [])
        #expect(fromOne.keys == [keys[0]])
        // A device holding epoch 2 only: epoch 3's entry is not its to open, epoch 1 unlocks.
        var middle = KeyRing(keys[1])
        var withNewer = chain
        withNewer[3] = KeyWrap.wrap(keys[2], under: DataKey.random(epoch: 4).chainKey, purpose: .chain)
        #expect(try middle.unlockChain(withNewer) == [1])
        #expect(middle.keys == Array(keys[0...1]))
        // A chain missing epoch 2's entry leaves epoch 1 locked too.
        var gap = KeyRing(keys[2])
        #expect(try gap.unlockChain([1: chain[1]!]) == [])
        #expect(gap.key(epoch: 1) == nil)
    }

    @Test("a chain that does not open under this device's key, or under another purpose, is refused")
    func brokenChain() throws {
        let (keys, chain) = Self.chain()
        var stranger = KeyRing(DataKey.random(epoch: 3))
        #expect(throws: EncryptionError.self) { try stranger.unlockChain(chain) }
        do {
            try stranger.unlockChain(chain)
        } catch {
            #expect(error.cause == .brokenChain(epoch: 2))
            #expect(error.message.contains("compare the key's fingerprint with another device's"))
        }
        var linkWrapped = chain
        linkWrapped[2] = KeyWrap.wrap(keys[1], under: keys[2].chainKey, purpose: .link)
        var ring = KeyRing(keys[2])
        do {
            try ring.unlockChain(linkWrapped)
            Issue.record("a key wrapped for a link was taken from the chain")
        } catch {
            #expect(error.cause == .brokenChain(epoch: 2))
        }
        // An entry holding another epoch's key.
        var misplaced = chain
        misplaced[2] = KeyWrap.wrap(DataKey.random(epoch: 5), under: keys[2].chainKey, purpose: .chain)
        var other = KeyRing(keys[2])
        do {
            try other.unlockChain(misplaced)
            Issue.record("a chain entry of another epoch was taken")
        } catch {
            #expect(error.cause == .brokenChain(epoch: 2))
            #expect(other.key(epoch: 2) == nil && other.keys.count == 1, "nothing was added")
        }
    }
}
