import Foundation

/// A fresh directory under the system's temporary directory, made by mkdtemp(3). It is removed
/// by `remove()` or, at the latest, when the last reference goes away.
package final class TemporaryDirectory: Sendable {
    package let path: String

    package init(_ label: String = "test") throws {
        var template = Array((NSTemporaryDirectory() + "oritsubushi-\(label)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: NSTemporaryDirectory()])
        }
        path = String(cString: made)
    }

    /// `name` inside the directory.
    package func sub(_ name: String) -> String { path + "/" + name }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }

    deinit { remove() }
}
