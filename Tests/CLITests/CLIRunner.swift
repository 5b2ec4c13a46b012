import Foundation
import LedgerTestSupport

/// A fresh directory under the system temporary directory.
struct Scratch {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/oritsubushi-cli-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
