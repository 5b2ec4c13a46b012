/// `POST /v1/pair`'s body (Schemas/sync-api.yaml).
struct PairRequest: Decodable {
    var code: String
    var deviceName: String

    enum CodingKeys: String, CodingKey {
        case code
        case deviceName = "device_name"
    }
}

/// `POST /v1/pair`'s answer: the new token, shown this once, and the device it was given to.
struct PairResponse: Encodable {
    var user: String
    var token: String
    /// The name the device got: the code's own (a link's `device_name`) or the one asked for,
    /// made distinct among the user's devices (`DeviceNaming.distinct`); on an encrypted
    /// account, which keeps no name in the clear, the one asked for, echoed and not stored.
    var deviceName: String
    var deviceID: String
    /// Whether the account is end-to-end encrypted: a device paired without `wrappedKey` must
    /// then get the key by a link from one of the user's devices or by the recovery kit.
    var encrypted: Bool
    /// The encrypted account's key epoch now (absent for a plaintext account).
    var epoch: UInt32?
    /// The key a link's code carried (Schemas/encryption.md §4 purpose 1), as 128 hex digits:
    /// given this once, as the code is used.
    var wrappedKey: String?

    init(_ pairing: Pairing, token: String, askedName: String) {
        (user, self.token, deviceName, deviceID) = (pairing.user, token, pairing.device.name ?? askedName, pairing.device.id)
        (encrypted, epoch, wrappedKey) = (pairing.epoch != nil, pairing.epoch, pairing.wrappedKey.map { AccountEncryption.hex($0) })
    }

    enum CodingKeys: String, CodingKey {
        case user, token, encrypted, epoch
        case deviceName = "device_name"
        case deviceID = "device_id"
        case wrappedKey = "wrapped_key"
    }
}
