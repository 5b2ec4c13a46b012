import LedgerCore
import LedgerSync

/// The device's key file, `<ledger>/encryption-keys` (Schemas/encryption.md §11 "The device's key
/// file"): mode 0600, one line per epoch in ascending order,
///
///     line     = epoch SP key [SP "rehearsed"] LF
///     epoch    = a decimal 1 … 4294967295, no leading zero
///     key      = the 32-byte key in base64url without padding (43 characters)
///
/// "rehearsed" marks the epoch whose recovery kit the person re-entered words of. The file is
/// replaced atomically (`FileSystem.writeAtomically`: temporary, fsync, rename, directory fsync).
extension KeyRing {
    package static let fileName = "encryption-keys"
    private static let rehearsedMark = "rehearsed"

    /// The key file's path in a ledger directory.
    package static func path(ledgerDirectory: String) -> String { Path.join(ledgerDirectory, fileName) }

    /// The ring kept in `ledgerDirectory`, or nil when it has no key file (a plaintext account's
    /// device, or one that has not got the key yet).
    /// - Throws: `EncryptionError` `.exposedKeyFile` when others than its owner may read or
    ///   write the file (on a file system with native paths), `.malformedKeyFile(line:)` when it
    ///   is not the format above; a read failure as the file system reports it.
    package static func load(ledgerDirectory: String, fileSystem: any FileSystem) throws -> KeyRing? {
        let path = path(ledgerDirectory: ledgerDirectory)
        guard fileSystem.fileExists(path) else { return nil }
        try OwnerOnlyFile.checkPrivate(path, fileSystem: fileSystem)
        return try decode(try fileSystem.readFile(path), file: path)
    }

    /// Writes the ring to `ledgerDirectory`'s key file, atomically. `fileSystem` must make files
    /// readable by their owner only (`PosixFileSystem(ownerOnly: true)`), the temporary copy too.
    /// - Throws: `EncryptionError` `.writtenExposed` when the file it wrote is readable by others
    ///   (the file system was not owner-only); a write failure as the file system reports it.
    package func save(ledgerDirectory: String, fileSystem: any FileSystem) throws {
        try OwnerOnlyFile.write(Self.path(ledgerDirectory: ledgerDirectory), encoded(), fileSystem: fileSystem)
    }

    /// The file's bytes: one line per epoch, ascending.
    package func encoded() -> [UInt8] {
        var text = ""
        for key in keys {
            text += "\(key.epoch) \(Base64URL.encode(key.bytes))"
            if rehearsedEpochs.contains(key.epoch) { text += " \(Self.rehearsedMark)" }
            text += "\n"
        }
        return Array(text.utf8)
    }

    /// The ring a key file's bytes hold; `file` names it in a refusal.
    /// - Throws: `EncryptionError` `.malformedKeyFile(line:)`, naming the file and the line.
    package static func decode(_ bytes: [UInt8], file: String) throws(EncryptionError) -> KeyRing {
        func malformed(_ line: Int, _ why: String) -> EncryptionError {
            EncryptionError(.malformedKeyFile(line: line),
                            "\(file), line \(line): \(why); each line is `EPOCH KEY` (KEY the 32-byte key in base64url), epochs ascending (Schemas/encryption.md §11)",
                            file: file)
        }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The last line's LF ends the file; a file without it reads the same.
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { throw malformed(1, "the key file holds no key") }
        var keys: [DataKey] = []
        var rehearsed: Set<UInt32> = []
        for (index, line) in lines.enumerated() {
            let number = index + 1
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            guard fields.count == 2 || (fields.count == 3 && fields[2].elementsEqual(rehearsedMark.utf8)) else {
                throw malformed(number, "the line is not an epoch, one space and a key")
            }
            guard let epoch = Self.epoch(fields[0]) else {
                throw malformed(number, "\"\(String(decoding: fields[0], as: UTF8.self))\" is not an epoch from 1 to 4294967295")
            }
            guard keys.last.map({ $0.epoch < epoch }) ?? true else {
                throw malformed(number, "epoch \(epoch) comes after epoch \(keys.last!.epoch)")
            }
            guard let bytes = Base64URL.decode(String(decoding: fields[1], as: UTF8.self)),
                  let key = DataKey(epoch: epoch, bytes: bytes) else {
                throw malformed(number, "the key of epoch \(epoch) is not 32 bytes in base64url")
            }
            keys.append(key)
            if fields.count == 3 { rehearsed.insert(epoch) }
        }
        return KeyRing(keys: keys, rehearsedEpochs: rehearsed)!
    }

    /// A decimal epoch without a leading zero, 1 … 2^32 − 1.
    private static func epoch(_ digits: ArraySlice<UInt8>) -> UInt32? {
        guard (1...10).contains(digits.count), digits.first != UInt8(ascii: "0"),
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return UInt32(String(decoding: digits, as: UTF8.self))
    }
}
