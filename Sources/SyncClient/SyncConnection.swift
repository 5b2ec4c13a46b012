import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerSync
import NIOCore
import NIOHTTP1

/// One server and one bearer token. The token is sent only in the Authorization header and
/// never appears in an error message.
package struct SyncConnection: Sendable {
    package var server: String
    package var token: String
    package var timeout: TimeAmount = .seconds(120)
    /// The process-wide client unless a caller needs its own pool (the load generator runs
    /// more concurrent clients than the default pool's eight connections per host).
    package var httpClient: HTTPClient = SyncConnection.client
    /// The requests sent a second time (`RetryLog`), shared by copies of this connection.
    package var retries = RetryLog()
    /// The server's clock at its last answer (`ServerClock`), shared by copies of this connection.
    package var serverClock = ServerClock()

    package init(server: String, token: String) throws {
        var base = server
        while base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("http://") || base.hasPrefix("https://") else {
            throw LedgerError(.usage, "--server '\(server)' must be an http:// or https:// URL")
        }
        self.server = base
        self.token = token
    }

    package func pull(_ request: PullRequest) async throws -> PullResponse {
        try await post("/v1/pull", request)
    }

    package func push(_ request: PushRequest) async throws -> PushResponse {
        try await post("/v1/push", request)
    }

    /// A JSON exchange; a push's records are written by the streaming writer (`WireJSON`).
    private func post<Body: Encodable, Reply: Decodable>(_ path: String, _ body: Body) async throws -> Reply {
        let reply = try await exchange(path, body: try WireJSON.encode(body), contentType: "application/json")
        return try decodeJSON(Reply.self, reply.body)
    }

    /// What an answered request brought back: its media type and body.
    struct Reply {
        var contentType: String?
        var body: ByteBuffer
    }

    /// Posts `body` and returns a 200's answer; every other status throws its refusal.
    /// A `GET` without a body when `method` says so; no Authorization header when the token is
    /// empty (`POST /v1/pair`, which a device without a token calls).
    /// `retryable`: whether the request may be sent again (see below); a revocation or a pairing
    /// sent twice would be refused the second time, after it took effect the first.
    func exchange(_ path: String, method: HTTPMethod = .POST, body: some Collection<UInt8>, contentType: String,
                  accept: String? = nil, retryable: Bool = true) async throws -> Reply {
        var request = HTTPClientRequest(url: server + path)
        request.method = method
        if !token.isEmpty { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let accept { request.headers.add(name: "Accept", value: accept) }
        if method != .GET {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        var response: HTTPClientResponse?
        var bytes = ByteBuffer()
        // Pulls and pushes may be sent again: a retried push appends nothing twice
        // (Schemas/sync-api.yaml). A kept-alive connection the server closed as idle just as the
        // request went out (`serve --idle-timeout`) is tried once more on a new connection.
        for attempt in 1...2 where response == nil {
            do {
                let answer = try await httpClient.execute(request, timeout: timeout)
                bytes = try await answer.body.collect(upTo: 256 << 20)
                response = answer
            } catch where attempt == 1 && retryable && Self.closedUnderRequest(error) {
                retries.note("\(method) \(path): the server closed the connection as the request went out; sent again on a new connection")
                continue
            } catch {
                throw LedgerError(.unavailable, "cannot reach \(server): \(Self.unreachableReason(error))")
            }
        }
        guard let response else { throw LedgerError(.unavailable, "cannot reach \(server): the server closed the connection") }
        serverClock.note(dateHeader: response.headers.first(name: "Date"))
        guard response.status == .ok else {
            let detail = (try? JSONDecoder().decode(ErrorBody.self, from: Data(bytes.readableBytesView)))
            let message = detail.map { "\($0.message) (\($0.error))" } ?? "HTTP \(response.status.code)"
            switch response.status.code {
            case 401: throw LedgerError(.permission, "the sync server refused the token: \(message)")
            case 403: throw LedgerError(.permission, "the sync server refused access: \(message)")
            case 409:
                if let detail, detail.error == "fork", let hex = detail.device, let device = DeviceID(hex: hex), let seq = detail.seq {
                    throw SyncFork(device: device, seq: seq, message: detail.message)
                }
                throw LedgerError(.conflict, "the sync server refused the events: \(message)")
            case 400, 413, 422: throw LedgerError(.badInput, "the sync server refused the request: \(message)")
            // A pairing or link code used or expired (`device join`), and too many wrong codes.
            case 410: throw LedgerError(.permission, "the sync server refused the code: \(message)")
            case 429: throw LedgerError(.locked, "the sync server asks to wait: \(message)")
            case 404: throw LedgerError(.unavailable, "the sync server failed: \(message)", cause: .notServed)
            default: throw LedgerError(.unavailable, "the sync server failed: \(message)")
            }
        }
        return Reply(contentType: response.headers.first(name: "Content-Type"), body: bytes)
    }

    /// A reply's JSON; a pull answer's records are read by the streaming reader (`WireJSON`).
    func decodeJSON<Reply: Decodable>(_ type: Reply.Type, _ bytes: ByteBuffer) throws -> Reply {
        do { return try bytes.withUnsafeReadableBytes { try WireJSON.decode(Reply.self, from: $0) } } catch {
            throw LedgerError(.unavailable, "the sync server at \(server) sent a reply that is not the sync API's JSON")
        }
    }

    /// One client for the process. Connection attempts are not retried with backoff (the
    /// shared client's default): a sync is rerun by its user, and an unreachable server should
    /// say so at once (exit 69) instead of after the request deadline. An idle connection is
    /// closed after `idleTimeout`, below `serve --idle-timeout`'s default 30 s, so that the client
    /// lets a connection go before the server does (which is what makes a request meet a
    /// connection closing under it).
    package static let idleTimeout: TimeAmount = .seconds(20)

    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(120))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.idleTimeout = idleTimeout
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
