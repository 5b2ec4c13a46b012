import Hummingbird
import LedgerSync

/// The account's end-to-end encryption (Schemas/sync-api.yaml `/v1/account…`; Schemas/encryption.md
/// §11, "The API"): what a device learns before its first push (whether it needs a key, and whether
/// the one it holds is the account's), the registration of the first key's fingerprint, and a
/// rotation. The server never sees a key, only its fingerprint and wrapped forms.
extension SyncHTTPServer {
    static func addAccount(to router: Router<SyncRequestContext>, storage: any SyncStorage, bodyLimit: Int) {
        let smallBody = min(bodyLimit, 64 << 10)
        router.get("/v1/account") { request, _ in
            let caller = try await authenticateCaller(request, storage)
            var answer = AccountAnswer(try await storage.accountEncryption(user: caller.user))
            if answer.encryption != nil {
                // Whether this device named itself sealed yet (encryption.md §8, "Device names").
                let own = try await storage.devices(user: caller.user).first { $0.id == caller.deviceID }
                answer.deviceNamed = own?.name.map(SealedDeviceName.isSealed) ?? false
            }
            return try encode(200, answer)
        }
        router.post("/v1/account/key") { request, _ in
            let caller = try await authenticateCaller(request, storage)
            let body: KeyRegistration = try await decode(request, limit: smallBody)
            guard AccountEncryption.isFingerprint(body.fingerprint) else { throw AccountEncryption.invalidFingerprint }
            return try encode(200, AccountAnswer(try await storage.registerKey(user: caller.user, fingerprint: body.fingerprint)))
        }
        router.post("/v1/account/rotation") { request, _ in
            let caller = try await authenticateCaller(request, storage)
            let body: KeyRotation = try await decode(request, limit: smallBody)
            guard let previous = AccountEncryption.wrappedKey(hex: body.previousWrapped) else {
                throw AccountEncryption.invalidWrappedKey("previous_wrapped")
            }
            guard AccountEncryption.isFingerprint(body.fingerprint) else { throw AccountEncryption.invalidFingerprint }
            let rotated = try await storage.rotateKey(user: caller.user, to: body.epoch, previousWrapped: previous, fingerprint: body.fingerprint)
            return try encode(200, AccountAnswer(rotated))
        }
    }
}

/// `GET /v1/account`'s answer (also `/v1/account/key`'s and `/rotation`'s): every key written,
/// null where a plaintext account (or an unregistered key) has no value.
struct AccountAnswer: Encodable {
    var encryption: AccountEncryption?
    /// `GET /v1/account` on an encrypted account: whether the asking device's token carries a
    /// sealed name (it names itself sealed once it holds the key); absent otherwise.
    var deviceNamed: Bool?

    init(_ encryption: AccountEncryption?) { self.encryption = encryption }

    enum CodingKeys: String, CodingKey {
        case encrypted, epoch, fingerprint
        case keyChain = "key_chain"
        case deviceNamed = "device_named"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(encryption != nil, forKey: .encrypted)
        if let epoch = encryption?.epoch { try container.encode(epoch, forKey: .epoch) } else { try container.encodeNil(forKey: .epoch) }
        if let fingerprint = encryption?.fingerprint {
            try container.encode(fingerprint, forKey: .fingerprint)
        } else {
            try container.encodeNil(forKey: .fingerprint)
        }
        let chain = (encryption?.keyChain ?? [:]).map { (String($0.key), AccountEncryption.hex($0.value)) }
        try container.encode(Dictionary(uniqueKeysWithValues: chain), forKey: .keyChain)
        try container.encodeIfPresent(deviceNamed, forKey: .deviceNamed)
    }
}

/// `POST /v1/account/key`'s body.
private struct KeyRegistration: Decodable {
    var fingerprint: String
}

/// `POST /v1/account/rotation`'s body.
private struct KeyRotation: Decodable {
    var epoch: UInt32
    var previousWrapped: String
    var fingerprint: String

    enum CodingKeys: String, CodingKey {
        case epoch, fingerprint
        case previousWrapped = "previous_wrapped"
    }
}
