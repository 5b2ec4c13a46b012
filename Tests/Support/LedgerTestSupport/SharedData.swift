import Foundation
import Testing

/// The reference catalogue dumps in `../shared/data/` (beside the repository, never copied into it).
/// `ORITSUBUSHI_SHARED_DATA` points elsewhere, e.g. at an empty folder to see the CI failure.
package enum SharedData {
    package static let directory: String = {
        if let override = ProcessInfo.processInfo.environment["ORITSUBUSHI_SHARED_DATA"] { return override }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data").path
    }()

    /// The checkout: Tests/Support/LedgerTestSupport/SharedData.swift → four levels up.
    package static let repositoryRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static func dump(_ version: Int) -> String { directory + "/stations-\(version).sql" }
    package static var stations152: String { dump(152) }
    package static var stations176: String { dump(176) }

    /// The small catalogue kept in the repository (Tools/sample-catalog-176.sql).
    package static var sample: String { repositoryRoot.appendingPathComponent("Tools/sample-catalog-176.sql").path }

    package static var available: Bool {
        FileManager.default.fileExists(atPath: stations152) && FileManager.default.fileExists(atPath: stations176)
    }

    /// Whether a test needing the dumps can run. Missing dumps are a skip on a developer's machine
    /// but a failure (a thrown error) on CI, where a silent skip would hide a broken checkout.
    static func checkAvailable() throws -> Bool {
        if available { return true }
        if ProcessInfo.processInfo.environment["CI"] == "true" { throw Missing(directory: directory) }
        return false
    }

    struct Missing: Error, CustomStringConvertible {
        let directory: String
        var description: String {
            "CI=true but \(directory) does not hold stations-152.sql and stations-176.sql (clone the shared data beside the repository)"
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only with the reference dumps: reported as skipped without them, failed on CI.
    package static var requiresSharedData: Self {
        .enabled("needs ../shared/data/stations-152.sql and stations-176.sql") { try SharedData.checkAvailable() }
    }
}
