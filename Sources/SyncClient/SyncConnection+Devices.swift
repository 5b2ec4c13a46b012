import LedgerCore
import LedgerSync
import NIOHTTP1

/// The user's own devices through the server (Schemas/sync-api.yaml `/v1/devices…`, `/v1/pair`):
/// what `oritsubushi device …` runs.
extension SyncConnection {
    /// One of the user's devices as the server lists it.
    package typealias Device = DeviceEntry<Int64>

    /// A one-time code for another device of the user.
    package struct LinkCode: Decodable, Sendable {
        package var code: String
        package var expires: Int64
    }

    /// What `POST /v1/pair` gave: the user, the new token (shown once) and the device's name.
    package struct Paired: Decodable, Sendable {
        package var user: String
        package var token: String
        package var deviceName: String
        package var deviceID: String
        /// Whether the account is end-to-end encrypted (absent from a server before encryption).
        package var encrypted: Bool?
        /// A link's key for this device: the account's key wrapped under the link's secret
        /// (128 hex digits), and the key's epoch (encryption.md §8).
        package var wrappedKey: String?
        package var epoch: UInt32?

        enum CodingKeys: String, CodingKey {
            case user, token, encrypted, epoch
            case deviceName = "device_name"
            case deviceID = "device_id"
            case wrappedKey = "wrapped_key"
        }
    }

    package func devices() async throws -> [Device] {
        struct Answer: Decodable { var devices: [Device] }
        let reply = try await exchange("/v1/devices", method: .GET, body: [UInt8](), contentType: "application/json")
        return try decodeJSON(Answer.self, reply.body).devices
    }

    /// `wrappedKey`: an encrypted account's key wrapped for the link (encryption.md §8).
    package func link(deviceName: String?, ttlSeconds: Int, wrappedKey: [UInt8]? = nil) async throws -> LinkCode {
        struct Body: Encodable {
            var device_name: String?
            var ttl_seconds: Int
            var wrapped_key: String?
        }
        return try await send("/v1/devices/link", Body(device_name: deviceName, ttl_seconds: ttlSeconds, wrapped_key: wrappedKey.map(Hex.string)),
                              retryable: false)
    }

    package func rename(to name: String) async throws -> Device {
        struct Answer: Decodable { var device: Device }
        let answer: Answer = try await send("/v1/devices/rename", ["name": name], retryable: true)
        return answer.device
    }

    package func revoke(id: String) async throws -> Device {
        struct Answer: Decodable { var revoked: Device }
        let answer: Answer = try await send("/v1/devices/revoke", ["id": id], retryable: false)
        return answer.revoked
    }

    package func signOut() async throws -> Device {
        struct Answer: Decodable { var revoked: Device }
        let answer: Answer = try await send("/v1/devices/sign-out", [String: String](), retryable: false)
        return answer.revoked
    }

    /// Exchanges a pairing or link code for a token (no token needed: this connection's is empty).
    package func pair(code: String, deviceName: String) async throws -> Paired {
        try await send("/v1/pair", ["code": code, "device_name": deviceName], retryable: false)
    }

    private func send<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body, retryable: Bool) async throws -> Answer {
        let reply = try await exchange(path, body: try WireJSON.encode(body), contentType: "application/json", retryable: retryable)
        return try decodeJSON(Answer.self, reply.body)
    }
}
