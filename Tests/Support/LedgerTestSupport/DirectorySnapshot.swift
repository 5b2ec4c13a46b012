import Foundation

/// Every entry below a directory with its bytes (directories as empty data), to prove that a
/// rejected command left a ledger byte-for-byte as it was.
package func directorySnapshot(_ root: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
    while let relative = walker.nextObject() as? String {
        let path = root + "/" + relative
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        result[relative] = isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: path))
    }
    return result
}

/// The entries that differ between two snapshots (added, removed or changed), for a failure
/// message that names them.
package func snapshotDifferences(_ before: [String: Data], _ after: [String: Data]) -> [String] {
    Set(before.keys).union(after.keys).sorted().filter { before[$0] != after[$0] }
}
