import LedgerCore

/// The catalogue version a dump's file name carries: the last run of ASCII digits in its last
/// path component (`stations-176.sql` → 176, `v2/stations-177-fixed.sql` → 177), as the original
/// apps name their dumps. `catalog import FILE` uses it unless `--version N` is given.
package enum CatalogDumpName {
    /// The version in `path`'s file name; none (or 0) is a usage error asking for `--version N`.
    package static func version(of path: String) throws -> UInt32 {
        let name = Path.lastComponent(path)
        var runs: [String] = []
        var current = ""
        for c in name {
            if c.isASCII, c.isNumber { current.append(c) } else if !current.isEmpty { runs.append(current); current = "" }
        }
        if !current.isEmpty { runs.append(current) }
        guard let digits = runs.last, let version = UInt32(digits), version > 0 else {
            throw LedgerError(.usage, "the file name '\(name)' carries no version number; give --version N")
        }
        return version
    }
}
