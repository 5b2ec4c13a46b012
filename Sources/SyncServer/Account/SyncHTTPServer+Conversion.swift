import Hummingbird
import LedgerCore
import LedgerSync

/// `POST /v1/account/encryption` (Schemas/sync-api.yaml; Schemas/encryption.md §9): a device
/// turns its plaintext account end-to-end encrypted by uploading a sealed copy of every event,
/// as frames whose header names the new key's fingerprint.
extension SyncHTTPServer {
    static func addConversion(to router: Router<SyncRequestContext>, storage: any SyncStorage, bodyLimit: Int, decodedLimit: Int) {
        router.post("/v1/account/encryption") { request, _ in
            let caller = try await authenticateCaller(request, storage)
            guard MediaNegotiation.isFrames(contentType: request.headers[.contentType]) else { throw SyncServerError.framesOnly }
            let (header, records) = try await sealedBody(request, as: ConversionFramesHeader.self, limit: bodyLimit,
                                                         maximumRecords: storage.limits.frames.pushRecords, maximumDecodedBytes: decodedLimit)
            guard AccountEncryption.isFingerprint(header.fingerprint) else { throw AccountEncryption.invalidFingerprint }
            return try encode(200, try await storage.convert(user: caller.user, fingerprint: header.fingerprint, records: records))
        }
    }
}

/// The header of a conversion's frames: `count` and the new key's fingerprint.
struct ConversionFramesHeader: Codable, Sendable, FramesHeader {
    var count: Int
    var fingerprint: String
}
