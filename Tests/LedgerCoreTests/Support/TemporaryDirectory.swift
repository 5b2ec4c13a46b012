import Foundation

/// A fresh directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init(_ label: String = "ledger") throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/oritsubushi-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func sub(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Every file below `root` with its bytes, to prove that a rejected operation changed nothing.
func snapshot(of root: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
    while let relative = walker.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let full = root + "/" + relative
        _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
        result[relative] = isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: full))
    }
    return result
}
