import Foundation
import Hummingbird
import LedgerCore
import LedgerSync
import NIOCore

/// Every answer of the sync API that is not a success: one status and the JSON body
/// `{"error": code, "message": sentence}` (Schemas/sync-api.yaml, `Error`). Hummingbird renders
/// it through `HTTPResponseError`; `init(serving:)` is the one place where any failure of a
/// handler becomes one of these.
package struct SyncServerError: Error, Sendable {
    package enum Kind: Sendable {
        case malformed, unauthorized, forbidden, notFound, conflict, payloadTooLarge, unprocessable
        /// The client's copy of a device's log and the server's differ under one (device, seq):
        /// a copied ledger (Schemas/merge.md §10). 409 with `device` and `seq`.
        case fork
        /// The user's stored data is damaged (`server verify` names it; `server repair` fixes it):
        /// 503 for that user only, every other user is served.
        case unavailable
        /// A token that was revoked (a device signed out by its owner or the operator): 401 with
        /// a sentence that says so, so that the device can tell its person what happened.
        case revoked
        /// A method the path does not declare: 405 with `Allow`.
        case methodNotAllowed
        /// A pairing code that was used or has expired: 410.
        case gone
        /// Too many wrong pairing codes from one address: 429 with `Retry-After`.
        case tooManyRequests
        /// A failure of the server itself (an I/O error): nothing was applied.
        case `internal`
        /// Plaintext records (or a JSON request) for an end-to-end encrypted account, or sealed
        /// records for a plaintext one (Schemas/encryption.md §11): 409.
        case encryptedAccount, plaintextAccount
        /// Sealed records under a key epoch older than the account's (after a rotation), or one
        /// it does not have (Schemas/encryption.md §10): 409.
        case staleEpoch, unknownEpoch
        /// A JSON push or pull on an end-to-end encrypted account, which takes frames only
        /// (Schemas/encryption.md §11): 415.
        case unsupportedMediaType

        package var code: String {
            switch self {
            case .malformed: return "malformed"
            case .unauthorized: return "unauthorized"
            case .forbidden: return "forbidden"
            case .notFound: return "not_found"
            case .conflict: return "conflict"
            case .payloadTooLarge: return "payload_too_large"
            case .unprocessable: return "invalid"
            case .fork: return "fork"
            case .unavailable: return "unavailable"
            case .revoked: return "revoked"
            case .methodNotAllowed: return "method_not_allowed"
            case .gone: return "gone"
            case .tooManyRequests: return "too_many_requests"
            case .internal: return "internal"
            // As Schemas/encryption.md names its refusals, so that a device matches one code.
            case .encryptedAccount: return "encrypted-account"
            case .plaintextAccount: return "plaintext-account"
            case .staleEpoch: return "stale-epoch"
            case .unknownEpoch: return "unknown-epoch"
            case .unsupportedMediaType: return "unsupported_media_type"
            }
        }

        package var status: HTTPResponse.Status {
            switch self {
            case .malformed: return .badRequest
            case .unauthorized: return .unauthorized
            case .forbidden: return .forbidden
            case .notFound: return .notFound
            case .conflict: return .conflict
            case .payloadTooLarge: return .contentTooLarge
            case .unprocessable: return .unprocessableContent
            case .fork: return .conflict
            case .unavailable: return .serviceUnavailable
            case .revoked: return .unauthorized
            case .methodNotAllowed: return .methodNotAllowed
            case .gone: return .gone
            case .tooManyRequests: return .tooManyRequests
            case .internal: return .internalServerError
            case .encryptedAccount, .plaintextAccount, .staleEpoch, .unknownEpoch: return .conflict
            case .unsupportedMediaType: return .unsupportedMediaType
            }
        }
    }

    package var kind: Kind
    package var message: String
    /// For `.fork`: the device (16 hex digits) and the seq where the copies differ.
    package var device: String?
    package var seq: UInt64?
    /// For `.methodNotAllowed`: the `Allow` header's value.
    package var allow: String?
    /// For `.tooManyRequests`: seconds until another try is accepted (`Retry-After`).
    package var retryAfter: Int?
    /// For `.unavailable` because the user's stored ledger is damaged: the damage with its file
    /// and offset, for the operator's log at error level; never sent to a client.
    package var damage: LedgerError?
    /// For a refused merge (`init(refusedMerge:)`): why the merge refused it, matched on by the
    /// metrics (`clock_bound`), never by the message.
    package var refusal: LedgerError.Cause?

    /// The 503 of a user whose stored data is damaged (never an outage, which retrying heals):
    /// `message` for the client, `cause` for the operator's log at error level.
    package static func damaged(_ message: String, cause: LedgerError) -> SyncServerError {
        var answer = SyncServerError(.unavailable, message)
        answer.damage = cause
        return answer
    }

    /// Plaintext records or a JSON request for an end-to-end encrypted account.
    package static let encryptedAccount = SyncServerError(.encryptedAccount, "this account is end-to-end encrypted: it takes sealed records as frames only, so a device pushes and pulls with its key (get it by a link from one of your devices or with the recovery kit)")
    /// A JSON push or pull (records as JSON) on an end-to-end encrypted account.
    package static let framesOnly = SyncServerError(.unsupportedMediaType, "this account is end-to-end encrypted: its records are sent and received as \(FramesBody.mediaType) only (Schemas/sync-frames.md), never as JSON; use a client that encrypts (oritsubushi sync, the app)")
    /// Sealed records for a plaintext account.
    package static let plaintextAccount = SyncServerError(.plaintextAccount, "this account is not end-to-end encrypted: it takes plaintext records, not sealed ones (turn encryption on first)")

    /// The same with the damage in one clause.
    package static func damaged(_ message: String, detail: String) -> SyncServerError {
        damaged(message, cause: LedgerError(.corruption, detail))
    }

    package init(_ kind: Kind, _ message: String, device: String? = nil, seq: UInt64? = nil, allow: String? = nil,
                 retryAfter: Int? = nil) {
        (self.kind, self.message, self.device, self.seq) = (kind, message, device, seq)
        (self.allow, self.retryAfter) = (allow, retryAfter)
    }

    /// What a client is told about any error a handler throws: refusals keep their kind, a
    /// `LedgerError` about the request's content becomes a 4xx, and anything else a 500 that
    /// says only that nothing was applied (the cause goes to the log, not to the client).
    package init(serving error: any Error) {
        switch error {
        case let error as SyncServerError:
            self = error
        case let error as LedgerError where error.isRefusal:
            self.init(refusedMerge: error)
        case let error as LedgerError where error.category == .usage:
            self.init(.malformed, error.message)
        default:
            self.init(.internal, "the server could not complete the request; it was not applied")
        }
    }

    /// A push the merge admission refused: a held id with other content is a fork (409 `fork`
    /// naming the device and seq, so that a client that is a copy re-identifies itself, as on a
    /// pull; Schemas/merge.md §10), content the rules refuse a 422, any other conflict a 409.
    package init(refusedMerge error: LedgerError) {
        if case .differingEvent(let id) = error.cause {
            self.init(.fork, "event \(id) is held by the server with different content: this replica and another are copies of one ledger that parted there",
                      device: id.device.description, seq: id.seq)
            return
        }
        switch error.cause {
        case .staleEpoch: self.init(.staleEpoch, error.message)
        case .unknownEpoch: self.init(.unknownEpoch, error.message)
        default: self.init(error.category == .badInput ? .unprocessable : .conflict, error.message)
        }
        refusal = error.cause
    }
}

extension LedgerError {
    /// Whether the merge admission refused the request's content (422 or 409), rather than the
    /// store failing on its own data (damage, 503) or otherwise (500).
    package var isRefusal: Bool { category == .badInput || category == .conflict }
}

extension SyncServerError: HTTPResponseError {
    package var status: HTTPResponse.Status { kind.status }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let (head, body) = try responseParts()
        return Response(status: head.status, headers: head.headerFields, body: .init(byteBuffer: body))
    }

    /// The head and JSON body of this answer; also written by `UnroutableRequestResponder`, which
    /// answers below Hummingbird's router.
    func responseParts() throws -> (HTTPResponse, ByteBuffer) {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if kind == .unauthorized || kind == .revoked { headers[.wwwAuthenticate] = "Bearer realm=\"oritsubushi\"" }
        if let allow { headers[.allow] = allow }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        let body = try JSONEncoding.compact.encode(ErrorBody(error: kind.code, message: message, device: device, seq: seq))
        return (HTTPResponse(status: status, headerFields: headers), ByteBuffer(bytes: body))
    }
}
