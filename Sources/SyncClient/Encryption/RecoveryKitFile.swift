import LedgerCore
import LedgerSync

/// The recovery kit as a device writes it for its person, `<ledger>/recovery-kit.txt`
/// (Schemas/encryption.md §6, §11 "The recovery kit file"): mode 0600, written atomically, to be
/// printed or copied somewhere safe off the device and then deleted. It holds the kit twice (as
/// one line of 16 words, and as 4 numbered lines of 4 words, so that a rehearsal can ask for
/// "word 7"), the key's fingerprint and epoch, and what losing it means.
package enum RecoveryKitFile {
    package static let fileName = "recovery-kit.txt"

    package static func path(ledgerDirectory: String) -> String { Path.join(ledgerDirectory, fileName) }

    /// The file's text for `key`.
    package static func text(for key: DataKey) -> String {
        let kit = RecoveryKit.text(for: key)
        let words = RecoveryKit.words(of: kit)
        var lines = [
            "Oritsubushi recovery kit",
            "",
            "Key fingerprint: \(key.fingerprint)",
            "Key epoch: \(key.epoch)",
            "",
            "Recovery kit:",
            kit,
            "",
            "The same words, numbered:",
        ]
        for row in 0..<(RecoveryKit.wordCount / 4) {
            lines.append((0..<4).map { column in
                let number = row * 4 + column + 1
                let label = number < 10 ? " \(number)" : "\(number)"
                return "\(label). \(words[number - 1])"
            }.joined(separator: "   "))
        }
        lines += [
            "",
            "Keep this kit somewhere safe off this device: on paper, or in a password manager.",
            "Lose this kit and every device that holds the key, and the data is gone: nobody, the server's operator included, can read it again.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the kit of `key` to `ledgerDirectory`, atomically, readable by its owner only.
    /// `fileSystem` must be owner-only (`PosixFileSystem(ownerOnly: true)`).
    /// - Returns: the file's path.
    /// - Throws: `EncryptionError` `.writtenExposed` when it was written readable by others; a
    ///   write failure as the file system reports it.
    @discardableResult
    package static func write(for key: DataKey, ledgerDirectory: String, fileSystem: any FileSystem) throws -> String {
        try write(for: key, to: nil, ledgerDirectory: ledgerDirectory, fileSystem: fileSystem)
    }

    /// The same to `path` (`--recovery-kit FILE`), or to `ledgerDirectory` without one.
    @discardableResult
    package static func write(for key: DataKey, to path: String?, ledgerDirectory: String, fileSystem: any FileSystem) throws -> String {
        let path = path ?? Self.path(ledgerDirectory: ledgerDirectory)
        try OwnerOnlyFile.write(path, Array(text(for: key).utf8), fileSystem: fileSystem)
        return path
    }
}
