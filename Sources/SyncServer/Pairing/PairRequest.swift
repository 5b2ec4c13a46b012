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
    /// made distinct among the user's devices (`DeviceNaming.distinct`).
    var deviceName: String
    var deviceID: String

    enum CodingKeys: String, CodingKey {
        case user, token
        case deviceName = "device_name"
        case deviceID = "device_id"
    }
}
