import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import SyncClient
import Testing

/// The recovery kit as a device writes it for its person (Schemas/encryption.md §6, §11 "The
/// recovery kit file") and the rehearsal that asks two of its words back.
@Suite("The recovery kit file and its rehearsal")
struct RecoveryKitFileTests {
    @Test("the kit file holds the kit in one line and in 4 numbered lines, the fingerprint, the epoch and the two warnings, mode 0600")
    func contents() throws {
        let directory = try TemporaryDirectory("kit")
        let key = DataKey.random(epoch: 3)
        let path = try RecoveryKitFile.write(for: key, ledgerDirectory: directory.path,
                                             fileSystem: PosixFileSystem(ownerOnly: true))
        #expect(path == directory.sub("recovery-kit.txt"))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let kit = RecoveryKit.text(for: key)
        let words = RecoveryKit.words(of: kit)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains(kit), "the kit in one line of 16 words")
        #expect(lines.contains("Key fingerprint: \(key.fingerprint)"))
        #expect(lines.contains("Key epoch: 3"))
        #expect(lines.contains(" 1. \(words[0])    2. \(words[1])    3. \(words[2])    4. \(words[3])"))
        #expect(lines.contains(" 5. \(words[4])    6. \(words[5])    7. \(words[6])    8. \(words[7])"))
        #expect(lines.contains(" 9. \(words[8])   10. \(words[9])   11. \(words[10])   12. \(words[11])"))
        #expect(lines.contains("13. \(words[12])   14. \(words[13])   15. \(words[14])   16. \(words[15])"))
        #expect(text.contains("Keep this kit somewhere safe off this device"))
        #expect(text.contains("Lose this kit and every device that holds the key, and the data is gone"))
        #expect(text.hasSuffix("\n"))
        // The kit in the file gives the key back.
        #expect(try RecoveryKit.key(from: kit) == key)
        // Written again (a rotation's new kit): replaced, still 0600.
        let next = DataKey.random(epoch: 4)
        try RecoveryKitFile.write(for: next, ledgerDirectory: directory.path, fileSystem: PosixFileSystem(ownerOnly: true))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == RecoveryKitFile.text(for: next))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    @Test("a kit file written by a file system that is not owner-only is refused")
    func exposedRefused() throws {
        let directory = try TemporaryDirectory("kit")
        do {
            try RecoveryKitFile.write(for: DataKey.random(epoch: 1), ledgerDirectory: directory.path, fileSystem: PosixFileSystem())
            Issue.record("a kit readable by others was written without a refusal")
        } catch let error as EncryptionError {
            #expect(error.cause == .writtenExposed(mode: 0o644))
        }
    }

    /// A kit with letters that the reader's confusions apply to: its words as written, and the
    /// word numbers at which one of 0, 1 stands.
    static func confusableKit() -> (kit: String, words: [String]) {
        // Look for a kit with a 0 and a 1 in some words (nearly every random kit has both).
        var generator = SeededGenerator(seed: 45)
        while true {
            var bytes = [UInt8](repeating: 0, count: 32)
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            let kit = RecoveryKit.text(for: DataKey(epoch: 1, bytes: bytes)!)
            let words = RecoveryKit.words(of: kit)
            if words.contains(where: { $0.contains("0") }) && words.contains(where: { $0.contains("1") }) { return (kit, words) }
        }
    }

    @Test("the rehearsal takes two words in any case and with O for 0, I and L for 1")
    func rehearsalAccepts() throws {
        let (kit, words) = Self.confusableKit()
        let zero = try #require(words.firstIndex { $0.contains("0") })
        let one = try #require(words.firstIndex { $0.contains("1") })
        #expect(RecoveryKitRehearsal.check(words: [zero + 1: words[zero], one + 1: words[one]], kit: kit))
        #expect(RecoveryKitRehearsal.check(words: [zero + 1: words[zero].lowercased(), one + 1: words[one].lowercased()], kit: kit))
        let withO = words[zero].replacingOccurrences(of: "0", with: "O")
        let withI = words[one].replacingOccurrences(of: "1", with: "I")
        let withL = words[one].replacingOccurrences(of: "1", with: "l")
        #expect(RecoveryKitRehearsal.check(words: [zero + 1: withO, one + 1: withI], kit: kit))
        #expect(RecoveryKitRehearsal.check(words: [zero + 1: withO.lowercased(), one + 1: withL], kit: kit))
        // Spaces or a hyphen typed inside a word are skipped, as a kit reader skips them.
        let spaced = String(words[6].prefix(2)) + "-" + String(words[6].suffix(2))
        #expect(RecoveryKitRehearsal.check(words: [7: " \(spaced) ", 12: words[11]], kit: kit))
    }

    @Test("the rehearsal refuses a wrong word, a word at the wrong number, a number outside 1…16 and nothing")
    func rehearsalRefuses() throws {
        let (kit, words) = Self.confusableKit()
        #expect(!RecoveryKitRehearsal.check(words: [:], kit: kit))
        #expect(!RecoveryKitRehearsal.check(words: [1: words[0], 2: words[0]], kit: kit) || words[0] == words[1])
        #expect(!RecoveryKitRehearsal.check(words: [3: words[2], 17: words[2]], kit: kit))
        #expect(!RecoveryKitRehearsal.check(words: [0: words[0]], kit: kit))
        #expect(!RecoveryKitRehearsal.check(words: [3: String(words[2].prefix(3)), 4: words[3]], kit: kit))
        #expect(!RecoveryKitRehearsal.check(words: [3: words[2] + "A", 4: words[3]], kit: kit))
        #expect(!RecoveryKitRehearsal.check(words: [3: "U" + words[2].dropFirst(), 4: words[3]], kit: kit), "U is outside the alphabet")
        // Every single changed character of a word is refused.
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        var word = Array(words[4])
        for position in word.indices {
            let original = word[position]
            for replacement in alphabet where replacement != original {
                word[position] = replacement
                #expect(!RecoveryKitRehearsal.check(words: [5: String(word), 9: words[8]], kit: kit))
            }
            word[position] = original
        }
    }

    @Test("the words asked for are two distinct numbers from 1 to 16")
    func askedWords() {
        var generator = SeededGenerator(seed: 3)
        var seen: Set<Int> = []
        for _ in 0..<500 {
            let asked = RecoveryKitRehearsal.askedWords(using: &generator)
            #expect(asked.count == 2 && asked[0] < asked[1] && (1...16).contains(asked[0]) && (1...16).contains(asked[1]))
            seen.formUnion(asked)
        }
        #expect(seen == Set(1...16))
    }
}
