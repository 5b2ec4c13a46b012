import Foundation
import HTTPTypes
import Hummingbird
import LedgerCore
import Logging
import NIOConcurrencyHelpers

/// The phone app's routes (Schemas/sync-api.yaml): its files at `/app/` (the executable's own
/// copy, `WebAppAssets`), `/` redirecting there, the catalogue document at `/v1/catalog`, and the
/// pairing exchange at `/v1/pair`.
extension SyncHTTPServer {
    /// Sent with every file of the app: scripts, styles, images, workers and requests only from
    /// this origin, no inline script or style, no framing (Schemas/sync-api.yaml, `/app/`).
    /// With tiles, their origin (and only it) is added to `img-src` and `connect-src`.
    static func contentSecurityPolicy(tiles: MapTiles?) -> String {
        let tileSource = tiles.map { " " + $0.origin } ?? ""
        return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:\(tileSource); "
            + "connect-src 'self'\(tileSource); worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'"
    }

    static func addWebApp(to router: Router<SyncRequestContext>, tiles: MapTiles?) {
        var headers = HTTPFields()
        headers[.contentSecurityPolicy] = contentSecurityPolicy(tiles: tiles)
        headers[.xContentTypeOptions] = "nosniff"
        headers[.init("Referrer-Policy")!] = "no-referrer"
        // Revalidated on every load (a 304 costs a round trip); the service worker serves the
        // app offline, and a new binary's files reach the phone on its next online load.
        headers[.cacheControl] = "no-cache"
        let fileHeaders = headers

        router.get("/") { _, _ in redirect("/app/") }
        // What this server offers the app beyond its files; not one of them, so that the
        // operator's flags reach a phone without a new binary (Schemas/sync-api.yaml).
        let config = StaticPayload(AppConfig(tiles: tiles).json(), contentType: "application/json")
        router.get("/app/config.json") { request, _ in config.response(to: request, headers: fileHeaders) }
        // The router matches `/app` and `/app/` alike: the app's relative URLs need the slash.
        router.get("/app") { request, _ in
            request.uri.path.hasSuffix("/") ? try asset("index.html", request, fileHeaders) : redirect("/app/")
        }
        // One rule for paths: the percent-decoded path names a file exactly (`/app/%61pp.css` is
        // app.css; `/app/app.css/` names no file).
        router.get("/app/**") { request, _ in
            let raw = request.uri.path.dropFirst("/app/".count)
            guard !raw.hasSuffix("/"), let path = String(raw).removingPercentEncoding else {
                throw SyncServerError(.notFound, "there is no such file in this server's web app")
            }
            return try asset(path, request, fileHeaders)
        }
    }

    private static func asset(_ path: String, _ request: Request, _ headers: HTTPFields) throws -> Response {
        guard let payload = WebAppAssets.all[path] else {
            throw SyncServerError(.notFound, "there is no such file in this server's web app")
        }
        var headers = headers
        // The service worker controls /app/ although it is served from /app/sw.js.
        if path == "sw.js" { headers[.init("Service-Worker-Allowed")!] = "/app/" }
        return payload.response(to: request, headers: headers)
    }

    private static func redirect(_ location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        return Response(status: .found, headers: headers)
    }

    /// `GET /v1/catalog`: the catalogue document, made once by `document` at first use.
    static func addCatalog(to router: Router<SyncRequestContext>, storage: any SyncStorage,
                           document: (@Sendable () throws -> [UInt8])?) {
        let cache = NIOLockedValueBox<StaticPayload?>(nil)
        router.get("/v1/catalog") { request, _ in
            _ = try await authenticate(request, storage)
            guard let document else {
                throw SyncServerError(.notFound, "this server serves no catalogue document")
            }
            let payload = try cache.withLockedValue { cached in
                if let cached { return cached }
                let made = StaticPayload(try document(), contentType: "application/json")
                cached = made
                return made
            }
            var headers = HTTPFields()
            headers[.cacheControl] = "private, no-cache"
            return payload.response(to: request, headers: headers)
        }
    }

    /// `POST /v1/pair`: a one-time code for a new token (Schemas/sync-api.yaml). The attempt is
    /// counted before anything is looked up (`PairingAttempts`); a refusal names no account.
    static func addPairing(to router: Router<SyncRequestContext>, storage: any SyncStorage, clock: any WallClock,
                           proxies: TrustedProxies, bodyLimit: Int, logger: Logger) {
        let attempts = storage.pairingAttempts
        router.post("/v1/pair") { request, context in
            let address = proxies.client(peer: context.remoteAddress, forwardedFor: request.headers[values: .xForwardedFor])
            let now = clock.nowMilliseconds()
            let ticket: PairingAttemptTicket
            do {
                ticket = try await attempts.admit(PairingScope.scopes(address: address), now: now)
            } catch let error as SyncServerError where error.kind == .tooManyRequests {
                logger.warning("pairing attempt refused: over the limit", metadata: ["address": "\(address)"])
                throw error
            }
            let body: PairRequest = try await decode(request, limit: min(bodyLimit, 64 << 10))
            guard let name = DeviceNaming.valid(body.deviceName) else {
                throw SyncServerError(.unprocessable, "device_name must be 1 to \(DeviceNameRecord.maximumNameBytes) bytes of UTF-8")
            }
            do {
                guard let code = PairingCode(typed: body.code) else { throw PairingCode.unknown }
                let token = UserStore.newToken()
                let pairing = try await storage.redeemPairingCode(code, tokenHash: TokenHash.hex(token), deviceName: name, now: now)
                await attempts.forgive(ticket)
                logger.notice("paired", metadata: ["user": "\(pairing.user)", "device": "\(pairing.device.name ?? name)", "address": "\(address)"])
                return try encode(200, PairResponse(pairing, token: token, askedName: name))
            } catch let error as SyncServerError where error.kind == .unauthorized || error.kind == .gone {
                logger.notice("wrong pairing code", metadata: ["address": "\(address)", "reason": "\(error.kind == .gone ? "used or expired" : "unknown")"])
                throw error
            }
        }
    }
}

private extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
