import Foundation
import LedgerTestSupport
import Testing

/// Debian's headless `chromium`, which renders the report in ReportBrowserTests. Missing, the
/// tests are skipped with the package to install; under CI=true they fail instead
/// (`TestComponent`), so a CI image without it cannot pass silently.
enum Chromium {
    static let executable = TestComponent.executable(names: ["chromium", "chromium-browser"])

    static let component = TestComponent("headless chromium",
                                         remedy: "apt-get install chromium; Tools/test installs it as root") { executable != nil }

    /// Runs headless Chromium on `file` (own profile directory, no sandbox: the tests may run as
    /// root) and returns its stdout; killed after 120 s. Awaited (`ChildProcess`).
    static func run(_ arguments: [String], file: String, profile: String) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable!)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                             "--user-data-dir=\(profile)"] + arguments + [URL(fileURLWithPath: file).absoluteString]
        let out = profile + "-stdout-\(UUID().uuidString.prefix(8))"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: out) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if await !ChildProcess.exit(of: process, within: .seconds(120)) {
            process.terminate()
            _ = await ChildProcess.exit(of: process, within: .seconds(10))
        }
        try handle.close()
        return String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data(), as: UTF8.self)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where headless Chromium is installed: skipped without it, failed on CI.
    static var requiresChromium: Self { .requires(Chromium.component) }
}
