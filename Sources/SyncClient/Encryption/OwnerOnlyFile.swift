#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LedgerCore

/// A file only its owner may read: a device's keys and its recovery kit (Schemas/encryption.md
/// §11). Written atomically through `FileSystem.writeAtomically` (temporary, fsync, rename,
/// directory fsync) by an owner-only file system, and refused when read if others may read it.
enum OwnerOnlyFile {
    /// Replaces `path` with `bytes` atomically, then checks that the file is its owner's only.
    /// - Throws: `EncryptionError` `.writtenExposed` when `fileSystem` made it readable by
    ///   others (it must be `PosixFileSystem(ownerOnly: true)` or one in memory).
    static func write(_ path: String, _ bytes: [UInt8], fileSystem: any FileSystem) throws {
        try fileSystem.writeAtomically(path, bytes)
        if let mode = accessMode(path, fileSystem), mode & 0o077 != 0 {
            throw EncryptionError(.writtenExposed(mode: mode),
                                  "\(path) was written readable by others (mode \(octal(mode))): it must be written by an owner-only file system",
                                  file: path)
        }
    }

    /// Refuses `path` when its group or others may read or write it (ssh refuses a private key
    /// so too): its content opens every record of the account.
    static func checkPrivate(_ path: String, fileSystem: any FileSystem) throws(EncryptionError) {
        if let mode = accessMode(path, fileSystem), mode & 0o077 != 0 {
            throw EncryptionError(.exposedKeyFile(mode: mode),
                                  "\(path) can be read or written by others than its owner (mode \(octal(mode))), and it holds the keys to every record of the account: run `chmod 600 \(path)`",
                                  file: path)
        }
    }

    /// The file's permission bits on the real disk; nil where the file system has no native path
    /// (one in memory, where no other user exists).
    static func accessMode(_ path: String, _ fileSystem: any FileSystem) -> UInt32? {
        guard let native = fileSystem.nativePath(path) else { return nil }
        var status = stat()
        guard stat(native, &status) == 0 else { return nil }
        return UInt32(status.st_mode) & 0o777
    }

    private static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
