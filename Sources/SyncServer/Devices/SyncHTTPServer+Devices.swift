import Foundation
import Hummingbird
import LedgerCore
import LedgerSync
import Logging

/// The user's own devices (Schemas/sync-api.yaml `/v1/devices…`): list them, make a link code for
/// another device, rename this one, revoke one, sign this one out. Every path needs the bearer
/// token of one of the user's devices; a device can act only on its own user's devices.
extension SyncHTTPServer {
    static func addDevices(to router: Router<SyncRequestContext>, storage: any SyncStorage, clock: any WallClock,
                           bodyLimit: Int, logger: Logger) {
        let smallBody = min(bodyLimit, 64 << 10)
        router.get("/v1/devices") { request, _ in
            let caller = try await authenticateCaller(request, storage)
            let devices = try await storage.devices(user: caller.user)
            return try encode(200, DeviceListAnswer(devices: devices.map { DeviceEntry<Int64>($0, caller: caller) }))
        }
        router.post("/v1/devices/link") { request, _ in
            let caller = try await authenticateCaller(request, storage)
            let body: LinkRequest = try await decode(request, limit: smallBody)
            var name = try body.deviceName.map { try DeviceNaming.valid($0) ?? { throw DeviceNaming.invalid }() }
            // An encrypted account keeps no device name in the clear: the new device names
            // itself sealed once it holds the key (encryption.md §8, "Device names").
            if try await storage.accountEncryption(user: caller.user) != nil { name = nil }
            let lifetime = Int64(body.ttlSeconds ?? 600) * 1_000
            guard PairingCode.lifetimes.contains(lifetime) else {
                throw SyncServerError(.unprocessable, "ttl_seconds must be 60 to 604800 (a minute to 7 days)")
            }
            let wrappedKey = try await linkKey(body.wrappedKey, user: caller.user, storage)
            let code = PairingCode.random()
            let now = clock.nowMilliseconds()
            try await storage.addLinkCode(user: caller.user, code: code, deviceName: name, wrappedKey: wrappedKey, now: now, expires: now + lifetime)
            logger.notice("link code made", metadata: ["user": "\(caller.user)", "device": "\(caller.deviceID)"])
            return try encode(200, LinkAnswer(code: code.grouped, expires: now + lifetime))
        }
        router.post("/v1/devices/rename") { request, _ in
            let caller = try await authenticateCaller(request, storage)
            let body: RenameRequest = try await decode(request, limit: smallBody)
            let name = try await DeviceNaming.renaming(body.name, user: caller.user, storage)
            let device = try await storage.renameDevice(user: caller.user, tokenHash: caller.tokenHash, name: name)
            return try encode(200, ["device": DeviceEntry<Int64>(device, caller: caller)])
        }
        router.post("/v1/devices/revoke") { request, _ in
            let caller = try await authenticateCaller(request, storage)
            let body: RevokeRequest = try await decode(request, limit: smallBody)
            let device = try await storage.revokeDevice(user: caller.user, id: body.id, now: clock.nowMilliseconds())
            logger.notice("device revoked", metadata: ["user": "\(caller.user)", "device": "\(device.id)", "by": "\(caller.deviceID)"])
            return try encode(200, ["revoked": DeviceEntry<Int64>(device, caller: caller)])
        }
        router.post("/v1/devices/sign-out") { request, _ in
            let caller = try await authenticateCaller(request, storage)
            let body = try await SyncHTTPServer.body(request, limit: smallBody)
            if body.readableBytes > 0, (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] == nil {
                throw SyncServerError(.malformed, "the request body must be empty or a JSON object")
            }
            let device = try await storage.revokeDevice(user: caller.user, id: caller.deviceID, now: clock.nowMilliseconds())
            logger.notice("device signed out", metadata: ["user": "\(caller.user)", "device": "\(device.id)"])
            return try encode(200, ["revoked": DeviceEntry<Int64>(device, caller: caller)])
        }
    }

    /// A link's `wrapped_key` (Schemas/encryption.md §8: the account's current key wrapped for the
    /// link secret, which only the link carries): 128 hex digits (422 otherwise), and only on an
    /// end-to-end encrypted account (409 on a plaintext one, which has no key to send).
    private static func linkKey(_ hex: String?, user: String, _ storage: any SyncStorage) async throws -> [UInt8]? {
        guard let hex else { return nil }
        guard let wrapped = AccountEncryption.wrappedKey(hex: hex) else { throw AccountEncryption.invalidWrappedKey("wrapped_key") }
        guard try await storage.accountEncryption(user: user) != nil else { throw AccountEncryption.plaintextAccount }
        return wrapped
    }
}

/// The user and token of an authenticated request.
struct Caller: Sendable {
    var user: String
    var tokenHash: String
    var deviceID: String { UserDevice.id(ofTokenHash: tokenHash) }
}

private struct LinkRequest: Decodable {
    var deviceName: String?
    var ttlSeconds: Int?
    var wrappedKey: String?
    enum CodingKeys: String, CodingKey {
        case deviceName = "device_name"
        case ttlSeconds = "ttl_seconds"
        case wrappedKey = "wrapped_key"
    }
}

private struct LinkAnswer: Encodable {
    var code: String
    var expires: Int64
}

private struct RenameRequest: Decodable {
    var name: String
}

private struct RevokeRequest: Decodable {
    var id: String
}

private struct DeviceListAnswer: Encodable {
    var devices: [DeviceEntry<Int64>]
}

extension DeviceEntry<Int64> {
    /// A stored device as the caller sees it in the list.
    init(_ device: UserDevice, caller: Caller) {
        self.init(id: device.id, name: device.name, created: device.created, lastSync: device.lastSync,
                  thisDevice: device.id == caller.deviceID)
    }
}
