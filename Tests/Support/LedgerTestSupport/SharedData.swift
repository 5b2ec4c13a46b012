import Foundation
import LedgerCatalog
import Testing

/// The reference catalogue dumps: v176 is the catalogue bundled in the binary (`BundledCatalog`,
/// written once to a temporary file for the tests that take a path), so no test needs anything
/// from outside the repository for it; v152, for the upgrade tests, is read from `../shared/data/`
/// (beside the repository, never copied into it). `ORITSUBUSHI_SHARED_DATA` points elsewhere, e.g.
/// at an empty folder to see the CI failure.
package enum SharedData {
    package static let directory: String = {
        if let override = ProcessInfo.processInfo.environment["ORITSUBUSHI_SHARED_DATA"] { return override }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data").path
    }()

    /// The checkout: Tests/Support/LedgerTestSupport/SharedData.swift → four levels up.
    package static let repositoryRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The dump of `version`: the bundled one for 176, else `../shared/data/stations-N.sql`.
    package static func dump(_ version: Int) -> String {
        version == Int(BundledCatalog.version) ? bundled : directory + "/stations-\(version).sql"
    }
    package static var stations152: String { dump(152) }
    package static var stations176: String { bundled }

    /// The bundled catalogue as a file (`stations-176.sql` in a temporary folder named with the
    /// version, reused by every run), for the tests that read a dump by path. Written atomically on
    /// first use in each process, so concurrent test processes never see half a file.
    package static let bundled: String = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("oritsubushi-bundled-\(BundledCatalog.version)")
        let path = folder.appendingPathComponent(BundledCatalog.fileName).path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(try BundledCatalog.bytes()).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            fatalError("cannot write the bundled catalogue to \(path): \(error)")
        }
        return path
    }()

    /// The small catalogue kept in the repository (Tools/sample-catalog-176.sql).
    package static var sample: String { repositoryRoot.appendingPathComponent("Tools/sample-catalog-176.sql").path }

    package static var available: Bool { FileManager.default.fileExists(atPath: stations152) }

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
            "CI=true but \(directory) does not hold stations-152.sql (clone the shared data beside the repository)"
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only with the v152 dump (the upgrade tests): reported as skipped without it,
    /// failed on CI.
    package static var requiresSharedData: Self {
        .enabled("needs ../shared/data/stations-152.sql") { try SharedData.checkAvailable() }
    }
}
