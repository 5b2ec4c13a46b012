import Foundation
import Testing

/// Something outside the package that some tests need and a clone may lack: a PostgreSQL server,
/// Chromium, chromedriver, the `lz4` command, `setpriv`. On a developer's machine those tests are
/// skipped, saying what to install; under `CI=true` they fail naming it, so a CI image without
/// the component cannot pass while the tests did not run (docs/development.md "Running the tests").
package struct TestComponent: Sendable {
    /// What is missing, as the failure names it ("a PostgreSQL server named by …").
    package let name: String
    /// How to get it ("apt-get install lz4").
    package let remedy: String
    private let isPresent: @Sendable () -> Bool

    package init(_ name: String, remedy: String, isPresent: @escaping @Sendable () -> Bool) {
        self.name = name
        self.remedy = remedy
        self.isPresent = isPresent
    }

    /// Whether this run is CI's (`CI=true`, as `.ci/run`'s environment and `/tmp/env.sh` set it).
    package static var underCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The skip's reason: "needs NAME (REMEDY)".
    package var skipReason: String { "needs \(name) (\(remedy))" }

    /// true: the component is there; false: it is not and the test is to be skipped; under CI a
    /// missing component throws `Missing` instead, which fails the test.
    package func check(underCI: Bool = TestComponent.underCI) throws(Missing) -> Bool {
        if isPresent() { return true }
        if underCI { throw Missing(component: self) }
        return false
    }

    /// For a test that learns what it needs only while running (a store given as an argument):
    /// cancels it with the skip's reason, or throws `Missing` under CI.
    package func require(underCI: Bool = TestComponent.underCI) throws {
        guard try check(underCI: underCI) else { try Test.cancel(Comment(rawValue: skipReason)) }
    }

    package struct Missing: Error, CustomStringConvertible {
        package let component: TestComponent
        package var description: String {
            "CI=true but \(component.name) is missing, so the tests that need it cannot run: \(component.remedy)"
        }
    }

    /// An executable at the first of `paths` that exists, else on `PATH` under one of `names`.
    package static func executable(names: [String], paths: [String] = []) -> String? {
        let onPath = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .flatMap { directory in names.map { "\(directory)/\($0)" } }
        return (paths + onPath).first(where: FileManager.default.isExecutableFile(atPath:))
    }
}

extension TestComponent {
    /// Debian's `lz4` command (the golden segments are checked against the stock decoder).
    package static let lz4Tool = executable(names: ["lz4"], paths: ["/usr/bin/lz4"])
    package static let lz4 = TestComponent("the lz4 command", remedy: "apt-get install lz4") { lz4Tool != nil }

    /// Running a command as `nobody`: root ignores file permissions, so a read-only ledger is
    /// tested as that user through util-linux's `setpriv` (CLIRunner.unprivileged).
    package static let setpriv = TestComponent("setpriv (to run as nobody)", remedy: "apt-get install util-linux") {
        CLIRunner.canRunUnprivileged
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only with `component`: skipped without it, failed under CI.
    package static func requires(_ component: TestComponent, underCI: Bool = TestComponent.underCI) -> Self {
        .enabled(Comment(rawValue: component.skipReason)) { try component.check(underCI: underCI) }
    }
}
