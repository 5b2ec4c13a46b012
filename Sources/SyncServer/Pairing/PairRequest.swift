/// `POST /v1/pair`'s body (Schemas/sync-api.yaml).
struct PairRequest: Decodable {
    var code: String
    var deviceName: String

    enum CodingKeys: String, CodingKey {
        case code
        case deviceName = "device_name"
    }
}

/// `POST /v1/pair`'s answer: the new token, shown this once.
struct PairResponse: Encodable {
    var user: String
    var token: String
}
