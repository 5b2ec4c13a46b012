import CWebApp
import NIOCore

/// The phone web app's files (Sources/WebApp/app/), linked into the executable (`CWebApp`), each
/// ready to serve: its content type, an ETag and a gzip copy, made once at first use.
package enum WebAppAssets {
    /// Path relative to /app/ (e.g. `js/main.js`) → payload.
    static let all: [String: StaticPayload] = {
        var assets: [String: StaticPayload] = [:]
        for index in 0..<oritsubushi_web_asset_count() {
            let asset = oritsubushi_web_asset_at(index)!.pointee
            let path = String(cString: asset.path)
            let bytes = Array(UnsafeBufferPointer(start: asset.start, count: asset.end - asset.start))
            assets[path] = StaticPayload(bytes, contentType: contentType(of: path))
        }
        return assets
    }()

    /// The embedded paths, sorted (tests compare them with the folder).
    package static var paths: [String] { all.keys.sorted() }

    /// The bytes of one embedded file, for tests.
    package static func bytes(_ path: String) -> [UInt8]? {
        all[path].map { Array($0.identity.readableBytesView) }
    }

    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last.map(String.init) ?? "" {
        case "html": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "webmanifest": return "application/manifest+json"
        case "json": return "application/json"
        case "png": return "image/png"
        case "svg": return "image/svg+xml"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
