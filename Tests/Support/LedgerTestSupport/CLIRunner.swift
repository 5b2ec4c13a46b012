import Foundation

/// Runs the built `oritsubushi` executable the way a user does and captures its exit code,
/// stdout and stderr. Shared by the CLI, catalogue and sync test targets.
///
/// The child gets this process's environment minus the variables that would make a run depend on
/// the machine (`ORITSUBUSHI_TOKEN`, `ORITSUBUSHI_SIMULATE_FAULT`, and `ORITSUBUSHI_LANG` and `LANG`,
/// which pick the output language: without them it is English), then `ORITSUBUSHI_LEDGER` and
/// `ORITSUBUSHI_NOW` when set here, then `environment`. Output goes to temporary files, not pipes,
/// (`OutputFiles`).
package struct CLIRunner: Sendable {
    package struct Result: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// The instant the CLI tests pin "now" and "today" to (Japan: 2026-11-22).
    package static let pinnedNow = "2026-11-22T12:00:00+09:00"

    /// The executable next to the test bundle (SwiftPM puts products and test bundles together).
    package static let executable: String = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("oritsubushi").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        // Fall back to the default build folder of the package.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/oritsubushi").path
    }()

    /// `ORITSUBUSHI_LEDGER` for the child; `nil` leaves it unset (commands then pass `--ledger`).
    package var ledger: String?
    /// `ORITSUBUSHI_NOW` for the child; `nil` runs on the machine's clock.
    package var now: String?
    package var environment: [String: String]
    /// Run the executable as the unprivileged user `nobody` (uid 65534, via setpriv) when this
    /// process is root: root ignores file permissions, so read-only ledgers are tested this way.
    package var unprivileged = false

    package init(ledger: String?, now: String? = CLIRunner.pinnedNow, environment: [String: String] = [:]) {
        self.ledger = ledger
        self.now = now
        self.environment = environment
    }

    /// Whether `unprivileged` runs can drop root here (setpriv is present), or need not.
    package static let canRunUnprivileged = getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    @discardableResult
    package func run(_ arguments: String..., stdin: String? = nil) throws -> Result {
        try run(arguments, stdin: stdin)
    }

    @discardableResult
    package func run(_ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil) throws -> Result {
        try launch(executable: Self.executable, arguments: arguments, extra: extra, stdin: stdin)
    }

    /// Runs `script` with `/bin/sh -c`, `$0` being the executable: for arguments that a Swift
    /// `String` cannot hold, such as bytes that are not UTF-8 (`"$0" memo 5 "$(printf '\377')"`).
    @discardableResult
    package func runShell(_ script: String, environment extra: [String: String] = [:]) throws -> Result {
        try launch(executable: "/bin/sh", arguments: ["-c", script, Self.executable], extra: extra, stdin: nil)
    }

    /// The same, awaited: the child's exit resumes the caller (`Process.terminationHandler`), so
    /// an async test never holds one of Swift's cooperative threads while a command runs.
    @discardableResult
    package func run(_ arguments: String..., stdin: String? = nil) async throws -> Result {
        try await run(arguments, stdin: stdin)
    }

    @discardableResult
    package func run(_ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil) async throws -> Result {
        let (process, output) = try prepare(executable: Self.executable, arguments: arguments, extra: extra)
        try await ChildProcess.run(process, stdin: stdin)
        return Self.result(process, output)
    }

    @discardableResult
    package func runShell(_ script: String, environment extra: [String: String] = [:]) async throws -> Result {
        let (process, output) = try prepare(executable: "/bin/sh", arguments: ["-c", script, Self.executable], extra: extra)
        try await ChildProcess.run(process, stdin: nil)
        return Self.result(process, output)
    }

    private func launch(executable: String, arguments: [String], extra: [String: String], stdin: String?) throws -> Result {
        let (process, output) = try prepare(executable: executable, arguments: arguments, extra: extra)
        try ChildProcess.start(process, stdin: stdin)
        process.waitUntilExit()  // the synchronous face, for synchronous tests only
        return Self.result(process, output)
    }

    private static func result(_ process: Process, _ output: OutputFiles) -> Result {
        Result(status: process.terminationStatus,
               stdout: String(decoding: output.stdout, as: UTF8.self),
               stderr: String(decoding: output.stderr, as: UTF8.self))
    }

    /// The child, its environment and its output files, not yet started.
    private func prepare(executable: String, arguments: [String], extra: [String: String]) throws -> (Process, OutputFiles) {
        let process = Process()
        if unprivileged && getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        var variables = ProcessInfo.processInfo.environment
        variables["ORITSUBUSHI_TOKEN"] = nil
        variables["ORITSUBUSHI_SIMULATE_FAULT"] = nil
        variables["ORITSUBUSHI_LANG"] = nil
        variables["LANG"] = nil
        variables["ORITSUBUSHI_LEDGER"] = ledger
        variables["ORITSUBUSHI_NOW"] = now
        variables.merge(environment) { $1 }
        variables.merge(extra) { $1 }
        process.environment = variables

        let output = try OutputFiles(prefix: "oritsubushi-cli")
        output.attach(to: process)
        return (process, output)
    }
}
