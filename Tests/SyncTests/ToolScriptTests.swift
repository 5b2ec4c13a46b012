import Foundation
import LedgerTestSupport
import Testing

/// The scripts Tools/test runs besides `swift test`, with one of their components missing: under
/// `CI=true` they fail naming it, never "skipped" with exit 0 (docs/development.md "Running the tests"); and
/// Tools/schemathesis refuses to run without a token from `server add-user`.
@Suite struct ToolScriptTests {
    static let root = SharedData.repositoryRoot.path

    /// A PATH holding only `tools` (links to the system's), so that everything else is missing.
    static func path(with tools: [String], in dir: TemporaryDirectory) throws -> String {
        let bin = dir.sub("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for tool in tools {
            let target = try #require(TestComponent.executable(names: [tool]), "\(tool) is on this machine")
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + tool, withDestinationPath: target)
        }
        return bin
    }

    /// `script` run by bash with `environment` (`$0` of the shell is the built executable).
    static func run(_ script: String, _ arguments: String = "", environment: [String: String]) throws -> CLIRunner.Result {
        try CLIRunner(ledger: nil).runShell("exec /bin/bash '\(root)/Tools/\(script)' \(arguments)", environment: environment)
    }

    @Test("Tools/schemathesis without python3: a failure naming it under CI, a skip with the reason otherwise",
          arguments: [true, false])
    func schemathesisWithoutPython(underCI: Bool) throws {
        let dir = try TemporaryDirectory("schemathesis-missing")
        defer { dir.remove() }
        let path = try Self.path(with: ["dirname", "mktemp", "tail", "id", "rm"], in: dir)
        let result = try Self.run("schemathesis", #"--binary "$0" --venv "\#(dir.sub("venv"))""#,
                                  environment: ["PATH": path, "CI": underCI ? "true" : ""])
        let reason = "python3 is not installed (sudo apt-get install python3 python3-venv)"
        if underCI {
            #expect(result.status == 69, "\(result.stderr)")
            #expect(result.stderr.hasSuffix("error: \(reason)\n"), "\(result.stderr)")
        } else {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.hasSuffix("note: skipping the schemathesis run: \(reason)\n"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.sub("venv")))
    }

    @Test("Tools/schemathesis stops, exit 70, when server add-user printed no token, before installing anything")
    func schemathesisWithoutToken() throws {
        let dir = try TemporaryDirectory("schemathesis-token")
        defer { dir.remove() }
        let result = try Self.run("schemathesis", #"--binary /bin/true --venv "\#(dir.sub("venv"))""#, environment: ["CI": "true"])
        #expect(result.status == 70, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("error: server add-user on the files store printed no token (its last line: '')\n"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.sub("venv")))
    }

    @Test("Tools/webapp-test without node fails naming it (exit 69)")
    func webappTestWithoutNode() throws {
        let dir = try TemporaryDirectory("webapp-missing")
        defer { dir.remove() }
        let result = try Self.run("webapp-test", environment: ["PATH": try Self.path(with: ["dirname"], in: dir), "CI": "true"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr == "error: node is missing; install it with: apt-get install nodejs node-typescript esbuild\n")
    }
}
