import ReportFiles

/// The report's files (Sources/ReportAssets/report/: the page template, its fragments, the style
/// sheet and the scripts), embedded into the executable at build time (`ReportFiles`) so that a
/// copied binary writes the report with no other file.
package enum ReportAssets {
    /// Path relative to report/ (e.g. `map.js`) → bytes.
    static let all: [String: [UInt8]] = Dictionary(uniqueKeysWithValues: ReportFiles.files.map { ($0.path, $0.bytes) })

    /// The embedded paths, sorted (a test compares them with the folder).
    package static var paths: [String] { all.keys.sorted() }

    /// The bytes of one embedded file.
    package static func bytes(_ path: String) -> [UInt8]? { all[path] }

    /// One embedded file as text; every one is UTF-8, and ReportAssetTests reads each.
    static func text(_ path: String) -> String {
        guard let bytes = all[path] else { preconditionFailure("\(path) is not in Sources/ReportAssets/report") }
        return String(decoding: bytes, as: UTF8.self)
    }
}
