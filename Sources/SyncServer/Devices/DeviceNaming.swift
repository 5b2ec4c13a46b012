import LedgerCore
import LedgerSync

/// The rules for device names that a user's devices share (Schemas/sync-api.yaml `/v1/pair`,
/// `/v1/devices/rename`): a name is 1 to 255 bytes of UTF-8 after trimming white space, and no
/// two active devices of one user carry the same name, so that a name picks one device.
package enum DeviceNaming {
    /// The trimmed name, or nil when it is empty or too long.
    package static func valid(_ raw: String) -> String? {
        let name = raw.trimmingWhiteSpace()
        guard !name.isEmpty, name.utf8.count <= DeviceNameRecord.maximumNameBytes else { return nil }
        return name
    }

    /// The name `POST /v1/devices/rename` stores: on a plaintext account a valid name; on an
    /// end-to-end encrypted one only a sealed name (`SealedDeviceName`) of an epoch the account
    /// has, never one in the clear (409 `encrypted-account`; Schemas/encryption.md §8).
    package static func renaming(_ raw: String, user: String, _ storage: any SyncStorage) async throws -> String {
        guard let encryption = try await storage.accountEncryption(user: user) else {
            guard let name = valid(raw) else { throw invalid }
            return name
        }
        guard let sealed = SealedDeviceName.record(in: raw) else {
            if SealedDeviceName.isSealed(raw) { throw SyncServerError(.unprocessable, "the sealed device name does not read as one sealed device-name record") }
            throw SyncServerError(.encryptedAccount, "this account is end-to-end encrypted: its server keeps no device name in the clear; a device names itself with its sealed name, which 'oritsubushi sync' and the app send")
        }
        var epoch: UInt32 = 0
        sealed.forEach { epoch = $0.epoch }
        guard epoch >= 1, epoch <= encryption.epoch else {
            throw SyncServerError(.unknownEpoch, "the sealed device name is of key epoch \(epoch), which this account does not have (it is at epoch \(encryption.epoch))")
        }
        return raw
    }

    /// The refusal of a name `valid` rejects.
    package static var invalid: SyncServerError {
        SyncServerError(.unprocessable, "a device name must be 1 to \(DeviceNameRecord.maximumNameBytes) bytes of UTF-8")
    }

    /// The refusal of a rename to a name another active device of the user carries.
    package static func taken(_ name: String) -> SyncServerError {
        SyncServerError(.conflict, "another of this user's devices is already named '\(name)'; choose another name")
    }

    /// The refusal of an id that is not one of the user's active devices.
    package static func unknownDevice(_ id: String) -> SyncServerError {
        SyncServerError(.notFound, "no active device of this user has the id '\(id.prefix(UserDevice.idLength))'")
    }

    /// Whether `--device` text names the token: its device name, or its id (`UserDevice.id`).
    package static func names(_ name: String?, _ tokenHash: String, _ text: String) -> Bool {
        name == text || (UserDevice.isID(text) && UserDevice.id(ofTokenHash: tokenHash) == text)
    }

    /// Refuses a `--device` name that more than one active token carries (tokens of an older
    /// version, made before names were kept distinct), naming their ids: revoking several
    /// devices by one name is never what was meant.
    package static func requireOne(_ matchingHashes: [String], device: String, user: String) throws {
        guard matchingHashes.count > 1 else { return }
        let ids = matchingHashes.map(UserDevice.id(ofTokenHash:)).joined(separator: ", ")
        throw LedgerError(.usage, "user '\(user)' has \(matchingHashes.count) active devices named '\(device)' (ids \(ids)); give one id with --device ID")
    }

    /// `wanted` when no active device of the user has it, else the first free of "wanted (2)",
    /// "wanted (3)", … (the base shortened, at a character boundary, so that it still fits).
    package static func distinct(_ wanted: String, taken: Set<String>) -> String {
        guard taken.contains(wanted) else { return wanted }
        var number = 2
        while true {
            let suffix = " (\(number))"
            var base = Substring(wanted)
            while base.utf8.count + suffix.utf8.count > DeviceNameRecord.maximumNameBytes { base = base.dropLast() }
            let candidate = String(base) + suffix
            if !taken.contains(candidate) { return candidate }
            number += 1
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    fileprivate func trimmingWhiteSpace() -> String {
        var text = Substring(self)
        while let c = text.first, c.isWhitespace { text.removeFirst() }
        while let c = text.last, c.isWhitespace { text.removeLast() }
        return String(text)
    }
}
