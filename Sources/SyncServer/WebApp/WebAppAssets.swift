import Crypto
import NIOCore
import WebAppFiles

/// The phone web app's files (Sources/WebApp/app/), embedded into the executable at build time
/// (`WebAppFiles`), each ready to serve: its content type, an ETag and a gzip copy, made once at
/// first use. The service worker is served with its cache version derived from the other files
/// (`serviceWorkerVersion`), so that a change to any file installs anew with no other edit.
package enum WebAppAssets {
    /// Path relative to /app/ (e.g. `js/main.js`) → payload.
    static let all: [String: StaticPayload] = {
        var assets: [String: StaticPayload] = [:]
        let version = serviceWorkerVersion(WebAppFiles.files)
        for (path, bytes) in WebAppFiles.files {
            let served = path == "sw.js" ? stamping(bytes, version: version) : bytes
            assets[path] = StaticPayload(served, contentType: contentType(of: path))
        }
        return assets
    }()

    /// The service worker's cache version (Schemas/phone-app.md "The service worker"): the first
    /// 12 hex digits of the SHA-256 of every other file's path, a NUL, its bytes and a NUL, in
    /// path order.
    package static func serviceWorkerVersion(_ files: [(path: String, bytes: [UInt8])]) -> String {
        var hash = SHA256()
        for (path, bytes) in files.sorted(by: { $0.path < $1.path }) where path != "sw.js" {
            hash.update(data: Array(path.utf8) + [0])
            hash.update(data: bytes)
            hash.update(data: [0])
        }
        return hash.finalize().prefix(6).map { String($0, radix: 16).leftPadded(2) }.joined()
    }

    /// sw.js with its `const VERSION = '…';` line given `version`.
    static func stamping(_ bytes: [UInt8], version: String) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let stamped = text.replacing(/const VERSION = '[^'\n]*';/, maxReplacements: 1) { _ in "const VERSION = '\(version)';" }
        return Array(stamped.utf8)
    }

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
