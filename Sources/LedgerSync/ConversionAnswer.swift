/// `POST /v1/account/encryption`'s answer (Schemas/encryption.md §9): whether the account is
/// encrypted now (the staged sealed copy replaced the plaintext log), what the staged copy holds,
/// and what the plaintext log holds; the device uploads what `sealed_has` lacks, after pulling
/// what it lacks itself.
package struct ConversionAnswer: Codable, Sendable, Equatable {
    package var encrypted: Bool
    package var sealedHas: [String: UInt64]
    package var serverHas: [String: UInt64]

    enum CodingKeys: String, CodingKey {
        case encrypted
        case sealedHas = "sealed_has"
        case serverHas = "server_has"
    }

    package init(encrypted: Bool, sealedHas: [String: UInt64], serverHas: [String: UInt64]) {
        (self.encrypted, self.sealedHas, self.serverHas) = (encrypted, sealedHas, serverHas)
    }
}
