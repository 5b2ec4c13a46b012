/// What a user's own devices may do with the user's other devices (`/v1/devices…`,
/// Schemas/sync-api.yaml; `oritsubushi device …`): list them, make a one-time link code for a
/// new one, rename themselves, revoke one (or themselves: signing out). Both stores implement it
/// as part of `SyncStorage`, with the same answers and refusals.
package protocol UserDeviceDirectory: Sendable {
    /// The user's active devices, oldest first.
    func devices(user: String) async throws -> [UserDevice]
    /// Stores a one-time code (its `PairingCode.storedKey`) that `POST /v1/pair` exchanges for a
    /// new token of `user`, as `server pair`'s codes are; with `deviceName`, the new device gets
    /// that name (made distinct) instead of the one it asks for. With `wrappedKey` (an encrypted
    /// account's current key wrapped for the link, Schemas/encryption.md §4 purpose 1, 64 bytes),
    /// the key is kept with the code and handed once to the device that redeems it.
    func addLinkCode(user: String, code: PairingCode, deviceName: String?, wrappedKey: [UInt8]?, now: Int64, expires: Int64) async throws
    /// Renames the device of the token (its hash) to `name` (already `DeviceNaming.valid`);
    /// refuses with `.conflict` a name another active device of the user carries.
    func renameDevice(user: String, tokenHash: String, name: String) async throws -> UserDevice
    /// Revokes the user's active device `id`; refuses with `.notFound` when there is none.
    func revokeDevice(user: String, id: String, now: Int64) async throws -> UserDevice
    /// Records that the token (its hash) synced at `now`: written at most every
    /// `UserDevice.lastSyncResolution`; a failure to write it fails no sync.
    func noteSync(user: String, tokenHash: String, now: Int64) async
    /// When a revoked token (its hash) was revoked (Unix ms); nil for an active or unknown one.
    func revocation(ofTokenHash hash: String) async throws -> Int64?
}

/// What `POST /v1/pair` made: the user, and the new device as listed; for an end-to-end
/// encrypted account also its current key epoch and, when the code was a link that carried one,
/// the wrapped key (given this once: the code is used).
package struct Pairing: Sendable, Equatable {
    package var user: String
    package var device: UserDevice
    /// The account's key epoch now; nil for a plaintext account.
    package var epoch: UInt32?
    /// The link's wrapped key (64 bytes), when its code carried one.
    package var wrappedKey: [UInt8]?
    package init(user: String, device: UserDevice, epoch: UInt32? = nil, wrappedKey: [UInt8]? = nil) {
        (self.user, self.device, self.epoch, self.wrappedKey) = (user, device, epoch, wrappedKey)
    }
}
