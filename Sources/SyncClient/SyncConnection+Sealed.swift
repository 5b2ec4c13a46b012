import Foundation
import LedgerCore
import LedgerSync
import NIOCore
import NIOHTTP1

/// The requests of an end-to-end encrypted account (Schemas/encryption.md §11): its records
/// travel sealed, as frames only, and the device learns from `GET /v1/account` whether it needs
/// a key and whether the one it holds is the account's.
extension SyncConnection {
    /// `GET /v1/account`.
    package struct Account: Decodable, Sendable, Equatable {
        package var encrypted: Bool
        package var epoch: UInt32?
        /// The fingerprint of the account's current key, once its first device registered it.
        package var fingerprint: String?
        /// Epoch e's key wrapped under epoch e + 1's, by e in decimal (128 hex digits each).
        package var keyChain: [String: String]
        /// On an encrypted account: whether this device's token carries a sealed name (absent
        /// from a server before sealed names).
        package var deviceNamed: Bool?

        enum CodingKeys: String, CodingKey {
            case encrypted, epoch, fingerprint
            case keyChain = "key_chain"
            case deviceNamed = "device_named"
        }

        package init(encrypted: Bool, epoch: UInt32?, fingerprint: String?, keyChain: [String: String]) {
            (self.encrypted, self.epoch, self.fingerprint, self.keyChain) = (encrypted, epoch, fingerprint, keyChain)
        }

        /// The key chain's wrapped keys by epoch; a malformed entry is the server's fault.
        func wrappedKeys(server: String) throws -> [UInt32: [UInt8]] {
            var chain: [UInt32: [UInt8]] = [:]
            for (epoch, hex) in keyChain {
                guard let e = UInt32(epoch), let bytes = Hex.bytes(hex) else {
                    throw LedgerError(.unavailable, "the sync server at \(server) sent a key chain that is not the sync API's")
                }
                chain[e] = bytes
            }
            return chain
        }
    }

    /// `GET /v1/account`; a server from before encryption (404) serves plaintext accounts only.
    package func account() async throws -> Account {
        let reply: Reply
        do { reply = try await exchange("/v1/account", method: .GET, body: [UInt8](), contentType: "application/json") } catch let error as LedgerError where error.cause == .notServed {
            return Account(encrypted: false, epoch: nil, fingerprint: nil, keyChain: [:])
        }
        return try decodeJSON(Account.self, reply.body)
    }

    /// `POST /v1/account/key`: registers the fingerprint of the account's first key.
    package func registerKey(fingerprint: String) async throws -> Account {
        struct Body: Encodable { var fingerprint: String }
        let reply = try await exchange("/v1/account/key", body: try JSONEncoder().encode(Body(fingerprint: fingerprint)),
                                       contentType: "application/json")
        return try decodeJSON(Account.self, reply.body)
    }

    /// `POST /v1/account/rotation`: moves the account to `epoch`, keeping `previousWrapped` (the
    /// current key wrapped under the new one's `K_chain`) in its key chain (encryption.md §7).
    package func rotateKey(epoch: UInt32, previousWrapped: [UInt8], fingerprint: String) async throws -> Account {
        struct Body: Encodable { var epoch: UInt32; var previous_wrapped: String; var fingerprint: String }
        let body = Body(epoch: epoch, previous_wrapped: Hex.string(previousWrapped), fingerprint: fingerprint)
        let reply = try await exchange("/v1/account/rotation", body: try JSONEncoder().encode(body), contentType: "application/json",
                                       retryable: false)
        return try decodeJSON(Account.self, reply.body)
    }

    /// Uploads `records` sealed under `key` (epoch 1) for the account's conversion.
    package func convert(_ records: EncodedRecords, key: DataKey) async throws -> ConversionAnswer {
        struct Header: Encodable { var count: Int; var fingerprint: String }
        let sealed: SealedRecords
        do { sealed = try SyncSealing.seal(records, with: key) } catch { throw error.ledgerError }
        let body = try FramesBody.encode(header: Header(count: sealed.count, fingerprint: key.fingerprint), records: sealed,
                                         writer: RecordFrames.Writer())
        let reply = try await exchange("/v1/account/encryption", body: body, contentType: FramesBody.mediaType)
        return try decodeJSON(ConversionAnswer.self, reply.body)
    }

    /// One pull page of an encrypted account, asked for as frames only: its sealed records
    /// opened with `keys` (then admitted as any pulled records are, on the device).
    package func pullSealedPage(_ request: PullRequest, keys: KeyRing) async throws -> PulledPage {
        let reply = try await exchange("/v1/pull", body: try WireJSON.encode(request), contentType: "application/json",
                                       accept: FramesBody.mediaType)
        guard reply.contentType.map({ $0.hasPrefix(FramesBody.mediaType) }) == true else {
            throw LedgerError(.unavailable, "the sync server at \(server) answered an encrypted account's pull without frames")
        }
        let header: SealedPullFramesHeader
        let sealed: SealedRecords
        do {
            (header, sealed) = try reply.body.withUnsafeReadableBytes { bytes throws(FramesBody.Refusal) in
                try FramesBody.decodeSealed(bytes, as: SealedPullFramesHeader.self, maximumRecords: Int.max, reader: RecordFrames.Reader())
            }
        } catch {
            throw LedgerError(.unavailable, "the sync server at \(server) sent frames this client cannot read: \(error.message)")
        }
        let records: EncodedRecords
        do { records = try SyncSealing.open(sealed, keys: keys, framed: true) } catch { throw error.ledgerError }
        let page = header.page
        return PulledPage(records: records,
                          response: PullResponse(records: [], more: page.more, cursor: page.cursor, serverHas: page.serverHas,
                                                 catalogVersion: nil, serverDigests: [:]),
                          framed: true, sealed: page, received: Self.newestDigests(sealed))
    }

    /// The digest of each device's sealed record holding its highest seq among `sealed`.
    static func newestDigests(_ sealed: SealedRecords) -> [DeviceID: String] {
        var newest: [DeviceID: (seq: UInt64, digest: String?)] = [:]
        sealed.forEach { view in
            if view.kind.holdsEvents, view.seq > newest[view.device]?.seq ?? 0 { newest[view.device] = (view.seq, nil) }
        }
        sealed.forEach { view in
            if view.kind.holdsEvents, newest[view.device]?.seq == view.seq { newest[view.device]?.digest = EventDigest.hex(view.bytes) }
        }
        return newest.compactMapValues(\.digest)
    }

    /// A frames push's body of `records` sealed under `key`.
    package static func sealedFramesBody(_ records: EncodedRecords, key: DataKey) throws -> [UInt8] {
        let sealed: SealedRecords
        do { sealed = try SyncSealing.seal(records, with: key) } catch { throw error.ledgerError }
        return try FramesBody.encode(header: PushFramesHeader(count: sealed.count), records: sealed, writer: RecordFrames.Writer())
    }
}
