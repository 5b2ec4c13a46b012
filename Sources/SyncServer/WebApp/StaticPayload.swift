import CompressNIO
import Crypto
import Foundation
import Hummingbird
import NIOCore

/// A fixed body served with validation and compression: an `ETag` from its bytes (a request
/// with a matching `If-None-Match` gets 304 and no body), and a gzip copy made once for clients
/// that accept it. Each representation has its own strong ETag (the gzip one ends `-gzip"`), as
/// RFC 9110 §8.8.3 asks of bytes that differ, with `Vary: Accept-Encoding`; a validator of either
/// matches the payload. The web app's files and the catalogue document are served this way.
struct StaticPayload: Sendable {
    let contentType: String
    let identity: ByteBuffer
    /// nil when gzip would not make it smaller (PNG icons).
    let gzip: ByteBuffer?
    /// The identity representation's ETag.
    let etag: String
    /// The gzip representation's ETag.
    var gzipETag: String { String(etag.dropLast()) + "-gzip\"" }

    init(_ bytes: [UInt8], contentType: String) {
        self.contentType = contentType
        identity = ByteBuffer(bytes: bytes)
        let digest = SHA256.hash(data: bytes).prefix(12).map { String($0, radix: 16).leftPadded(2) }.joined()
        etag = "\"\(digest)\""
        var source = identity
        let compressed = try? source.compress(with: .gzip())
        gzip = compressed.flatMap { $0.readableBytes < bytes.count ? $0 : nil }
    }

    /// The answer to `request` with `headers` added (the caller's security and cache headers).
    func response(to request: Request, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        let acceptsGzip = request.headers[values: .acceptEncoding].contains { $0.lowercased().contains("gzip") }
        let zipped = acceptsGzip ? gzip : nil
        headers[.eTag] = zipped == nil ? etag : gzipETag
        headers[.vary] = "Accept-Encoding"
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: {
            let tag = $0.trimmingCharacters(in: .whitespaces)
            return [etag, gzipETag, "W/" + etag, "W/" + gzipETag, "*"].contains(tag)
        }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        if let zipped {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: zipped))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: identity))
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
