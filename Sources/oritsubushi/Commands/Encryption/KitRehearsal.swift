import Foundation
import LedgerCore
import LedgerSync
import SyncClient

#if canImport(Glibc)
import Glibc
#endif

/// The recovery kit's rehearsal (Schemas/encryption.md §6: a kit never written down saves
/// nobody): at an interactive command, a device whose current key's kit was not rehearsed asks for
/// two of its 16 words; only then does the kit count as kept. Scripts (no terminal) are never
/// asked: they are told once where the kit is, and the next interactive command asks.
enum KitRehearsal {
    /// Asks for two words when standard input and output are terminals and the kit of `ring`'s
    /// current key was not rehearsed; marks it rehearsed in the key file when both are right.
    static func askIfOwed(ledgerDirectory: String) {
        guard isatty(STDIN_FILENO) != 0, Terminal.stdoutIsTerminal else { return }
        let fileSystem = PosixFileSystem(ownerOnly: true)
        guard let ring = try? KeyRing.load(ledgerDirectory: ledgerDirectory, fileSystem: fileSystem), !ring.isKitRehearsed else { return }
        let kit = RecoveryKit.text(for: ring.current)
        print("""

            Your recovery kit (key epoch \(ring.current.epoch), also in \(RecoveryKitFile.path(ledgerDirectory: ledgerDirectory))):
              \(kit)
            Lose this kit and every device, and the data is gone: nobody, the server's operator included, can read it again.
            Write it down or keep it in a password manager, then enter two of its words to show it is kept.
            """)
        var generator = SystemRandomNumberGenerator()
        var answers: [Int: String] = [:]
        for number in RecoveryKitRehearsal.askedWords(using: &generator) {
            Terminal.write(fd: STDOUT_FILENO, "word \(number) of 16: ")
            guard let line = readLine() else { return }
            answers[number] = line
        }
        guard RecoveryKitRehearsal.check(words: answers, kit: kit) else {
            print("those words are not the kit's: it is not counted as kept yet, and you will be asked again next time")
            return
        }
        do {
            try ring.markingKitRehearsed().save(ledgerDirectory: ledgerDirectory, fileSystem: fileSystem)
            print("the recovery kit is kept")
        } catch {
            Terminal.error("the rehearsal could not be recorded: \(error)")
        }
    }
}
