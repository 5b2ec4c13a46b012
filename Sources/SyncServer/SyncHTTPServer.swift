import Foundation
import Hummingbird
import HummingbirdCore
import LedgerCore
import LedgerSync
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// The sync API over HTTP (Schemas/sync-api.yaml), served by Hummingbird 2.
package enum SyncHTTPServer {
    package struct Configuration: Sendable {
        package var host = "127.0.0.1"
        /// 0 picks a free port (tests); `onRunning` reports the one bound.
        package var port = 8080
        /// Largest request body accepted, in bytes.
        package var maximumBodyBytes = 8 << 20
        /// Makes the catalogue document of `GET /v1/catalog` (JSON bytes), once, at first use;
        /// nil: that path answers 404.
        package var catalogDocument: (@Sendable () throws -> [UInt8])?
        /// The clock of pairing codes' expiry.
        package var clock: any WallClock = SystemClock()
        /// A connection that has not sent a complete first request head this long after it was
        /// accepted is closed (slow or half-sent headers hold a descriptor every user shares).
        package var headerTimeout: Duration = .seconds(10)
        /// A keep-alive connection idle this long between requests, or a request whose body
        /// stalls this long, is closed.
        package var idleTimeout: Duration = .seconds(30)
        /// Bytes a push's records may decode to (`FramesBody.decode`): 413 past it, before the
        /// rest is decoded. A phone's whole history is a few MB.
        package var maximumDecodedBytes = 64 << 20
        /// Seconds the server may wait in all for one request's body (`RequestBodyDeadline`).
        package var bodyTimeout = 120
        /// Bytes a second a request's body must arrive at, once the server has waited
        /// `RequestBodyDeadline.grace` seconds for it; slower, the connection is closed.
        package var bodyMinimumRate = 1024
        /// Connections served at once; more wait in the listen backlog until one closes.
        package var maximumConnections = 1000
        /// Whether pulls may be answered, and pushes read, as record frames (Schemas/sync-frames.md);
        /// off, the server speaks JSON only, as one before frames did.
        package var offersFrames = true
        /// The reverse proxies whose `X-Forwarded-For` names the client (`TrustedProxies`).
        package var trustedProxies = TrustedProxies.none
        /// Raster tiles offered to the phone app (`/app/config.json`, the app's CSP); nil: none.
        package var mapTiles: MapTiles?
        package init() {}
    }

    /// Builds the application. `onRunning` receives the bound port once the server listens.
    /// `extend` may add middleware before the routes (it runs outside the error mapping, so
    /// it sees every answer's final status: the metrics).
    package static func makeApplication(
        storage: any SyncStorage, configuration: Configuration, logger: Logger,
        extend: (Router<SyncRequestContext>) -> Void = { _ in },
        extraDeclaredMethods: [String: HTTPRequest.Method] = [:],
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router(context: SyncRequestContext.self)
        extend(router)
        router.add(middleware: SyncErrorMiddleware(logger: logger, declaredMethods: declaredMethods.merging(extraDeclaredMethods) { $1 },
                                                   describe: { storage.logDescription(of: $0) }))
        let limit = configuration.maximumBodyBytes
        let decodedLimit = configuration.maximumDecodedBytes
        let offersFrames = configuration.offersFrames

        // /health is an alias for load balancers and probes that expect the bare path.
        for path in ["/v1/health", "/health"] {
            router.get(RouterPath(path)) { _, _ -> Response in
                json(200, ["status": "ok", "api": "2"])
            }
        }

        router.get("/v1/status") { request, _ async throws -> Response in
            let user = try await authenticate(request, storage)
            let status = try await storage.status(user: user)
            struct Body: Encodable {
                var user: String
                var server_has: [String: UInt64]
                var records: UInt64
                var catalog_version: UInt32?
            }
            return try encode(200, Body(user: user, server_has: status.serverHas, records: status.records,
                                        catalog_version: status.catalogVersion))
        }

        let clock = configuration.clock
        router.post("/v1/pull") { request, _ async throws -> Response in
            let caller = try await authenticateCaller(request, storage)
            let user = caller.user
            let framed = offersFrames && MediaNegotiation.prefersFrames(accept: request.headers[.accept])
            // The account is asked before the body is read, so any JSON pull of an encrypted
            // account is told the same (415).
            let encrypted = try await storage.accountEncryption(user: user) != nil
            if encrypted && !framed { throw SyncServerError.framesOnly }
            let body: PullRequest = try await decode(request, limit: limit)
            if encrypted {
                // An end-to-end encrypted account's records travel sealed, as frames only.
                let answer = try await storage.pullSealed(user: user, request: body)
                logger.info("pull", metadata: ["user": "\(user)", "records": "\(answer.records.count)", "more": "\(answer.page.more)"])
                await storage.noteSync(user: user, tokenHash: caller.tokenHash, now: clock.nowMilliseconds())
                return frames(try answer.frames(writer: RecordFrames.Writer()))
            }
            let answer = try await storage.pullAnswer(user: user, request: body, as: framed ? .frames : .json)
            logger.info("pull", metadata: ["user": "\(user)", "records": "\(answer.records.count)", "more": "\(answer.page.more)"])
            await storage.noteSync(user: user, tokenHash: caller.tokenHash, now: clock.nowMilliseconds())
            if framed { return frames(try answer.frames(writer: RecordFrames.Writer())) }
            return try encode(200, answer.json)
        }

        router.post("/v1/push") { request, _ async throws -> Response in
            let caller = try await authenticateCaller(request, storage)
            let user = caller.user
            let response: PushResponse
            let encrypted = try await storage.accountEncryption(user: user) != nil
            let isFrames = offersFrames && MediaNegotiation.isFrames(contentType: request.headers[.contentType])
            if encrypted {
                guard isFrames else { throw SyncServerError.framesOnly }
                let records = try await sealedRecords(request, limit: limit, maximumRecords: storage.limits.frames.pushRecords,
                                                      maximumDecodedBytes: decodedLimit)
                response = try await storage.pushSealed(user: user, records: records)
            } else if isFrames {
                // A header counting more records than a push may carry is 413 before any frame
                // is read (Schemas/sync-frames.md "Refusals"), as the store would refuse them.
                let records = try await framedRecords(request, limit: limit, maximumRecords: storage.limits.frames.pushRecords,
                                                      maximumDecodedBytes: decodedLimit)
                response = try await storage.push(user: user, records: records)
            } else {
                let body: PushRequest = try await decode(request, limit: limit)
                response = try await storage.push(user: user, request: body)
            }
            logger.info("push", metadata: ["user": "\(user)", "appended": "\(response.appended)", "duplicates": "\(response.duplicates)"])
            await storage.noteSync(user: user, tokenHash: caller.tokenHash, now: clock.nowMilliseconds())
            return try encode(200, response)
        }

        addWebApp(to: router, tiles: configuration.mapTiles)
        addCatalog(to: router, storage: storage, document: configuration.catalogDocument)
        addPairing(to: router, storage: storage, clock: configuration.clock, proxies: configuration.trustedProxies,
                   bodyLimit: limit, logger: logger)
        addDevices(to: router, storage: storage, clock: configuration.clock, bodyLimit: limit, logger: logger)
        addAccount(to: router, storage: storage, bodyLimit: limit)
        addConversion(to: router, storage: storage, bodyLimit: limit, decodedLimit: decodedLimit)

        let headerTimeout = configuration.headerTimeout
        let (bodyTimeout, bodyMinimumRate) = (configuration.bodyTimeout, configuration.bodyMinimumRate)
        return Application(
            router: router,
            server: .http1(configuration: .init(
                additionalChannelHandlers: [FirstRequestHeadTimeout(timeout: headerTimeout),
                                            RequestBodyDeadline(timeout: bodyTimeout, minimumRate: bodyMinimumRate),
                                            UnroutableRequestResponder(), HTTP10ConnectionClose.Installer()],
                idleTimeout: TimeAmount(configuration.idleTimeout))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "oritsubushi",
                                 availableConnectionsDelegate: MaximumAvailableConnections(configuration.maximumConnections)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully: in-flight requests finish
    /// (an acknowledged push is already durable) and the store is closed. The store's services
    /// (its connection pool) come first in the service group, which stops services in the
    /// reverse order: they start before the HTTP server and stop after it, and the server listens
    /// only once the store has started (`AfterStoreStart`), whose failure ends the run with it.
    /// With `metrics`, every request is counted and `GET /metrics` answers on the main port, or
    /// only on a 127.0.0.1 listener of its own when `metricsPort` is given (`onMetricsRunning`
    /// gets its bound port).
    package static func serve(
        storage: any SyncStorage, configuration: Configuration, logger: Logger,
        metrics: SyncMetrics? = nil, metricsPort: Int? = nil,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let served: any SyncStorage = metrics.map { MeteredStorage(storage, metrics: $0) } ?? storage
        let app = makeApplication(
            storage: served, configuration: configuration, logger: logger,
            extend: { router in if let metrics { router.addMetrics(metrics, servesRoute: metricsPort == nil) } },
            extraDeclaredMethods: metrics != nil && metricsPort == nil ? ["/metrics": .get] : [:],
            onRunning: onRunning)
        var services: [any Service] = storage.services + [AfterStoreStart(store: storage, service: app)]
        if let metrics, let metricsPort {
            services.append(MetricsEndpoint.makeApplication(metrics: metrics, port: metricsPort, logger: logger, onRunning: onMetricsRunning))
        }
        let group = ServiceGroup(configuration: .init(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            await storage.close()
            throw error
        }
        await storage.close()
    }

    /// The one method of every path of the API (Schemas/sync-api.yaml): any other method on
    /// these paths, standard or not, answers 405 with `Allow` (`SyncErrorMiddleware`).
    static let declaredMethods: [String: HTTPRequest.Method] = [
        "/v1/health": .get, "/health": .get, "/v1/status": .get, "/v1/pull": .post, "/v1/push": .post,
        "/v1/pair": .post, "/v1/catalog": .get, "/": .get, "/app": .get, "/app/": .get, "/app/config.json": .get,
        "/v1/devices": .get, "/v1/devices/link": .post, "/v1/devices/rename": .post, "/v1/devices/revoke": .post,
        "/v1/devices/sign-out": .post, "/v1/account": .get, "/v1/account/key": .post, "/v1/account/rotation": .post,
        "/v1/account/encryption": .post,
    ]

    // MARK: - Helpers

    static func authenticate(_ request: Request, _ storage: any SyncStorage) async throws -> String {
        try await authenticateCaller(request, storage).user
    }

    /// The user and token of the request's bearer token; a revoked token is refused with a
    /// sentence that says so (`revoked`), an unknown one as not valid.
    static func authenticateCaller(_ request: Request, _ storage: any SyncStorage) async throws -> Caller {
        guard let header = request.headers[.authorization] else {
            throw SyncServerError(.unauthorized, "a bearer token is required (Authorization: Bearer <token>)")
        }
        let prefix = "Bearer "
        let token = header.hasPrefix(prefix) ? String(header.dropFirst(prefix.count)) : ""
        let hash = TokenHash.hex(token)
        if !token.isEmpty, let user = try await storage.user(forTokenHash: hash) { return Caller(user: user, tokenHash: hash) }
        if !token.isEmpty, let revoked = try await storage.revocation(ofTokenHash: hash) {
            throw SyncServerError(.revoked, "this device was signed out: its token was revoked at \(ISO8601.format(milliseconds: revoked)) "
                                  + "(by one of the user's devices or the server's operator); pair it again with a new code")
        }
        throw SyncServerError(.unauthorized, "the token is not valid (unknown or revoked)")
    }

    static func decode<T: Decodable>(_ request: Request, limit: Int) async throws -> T {
        let buffer = try await body(request, limit: limit)
        do {
            return try buffer.withUnsafeReadableBytes { try WireJSON.decode(T.self, from: $0) }
        } catch {
            throw SyncServerError(.malformed, "the request body is not the expected JSON: \(describe(error))")
        }
    }

    /// The request's body, at most `limit` bytes (413 beyond).
    static func body(_ request: Request, limit: Int) async throws -> ByteBuffer {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw SyncServerError(.payloadTooLarge, "the request body is \(length) bytes; the limit is \(limit)")
        }
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: limit) } catch is NIOTooManyBytesError {
            throw SyncServerError(.payloadTooLarge, "the request body exceeds the limit of \(limit) bytes")
        } catch {
            // The client went away (or sent a broken body) before the body was complete.
            throw SyncServerError(.malformed, "the request body ended before it was complete")
        }
        return buffer
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing key '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            return "a bad value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted: return "not valid JSON"
        default: return "unreadable"
        }
    }

    static func encode<T: Encodable>(_ status: Int, _ value: T) throws -> Response {
        let data = try WireJSON.encode(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static func json(_ status: Int, _ value: [String: String]) -> Response {
        (try? encode(status, value)) ?? Response(status: .init(code: status))
    }
}
