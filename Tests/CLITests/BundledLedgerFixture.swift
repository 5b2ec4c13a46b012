import Foundation
import LedgerTestSupport

/// A ledger made by a bare `init` (the bundled catalogue) plus the given commands, built once
/// through the CLI and copied for every test that changes it.
struct BundledLedgerFixture: Sendable {
    let root: String

    /// `setup` runs in order and must succeed; `ui-state.json` is then removed, so that `last`
    /// starts with no remembered date.
    init(label: String, setup: [[String]]) {
        root = FileManager.default.temporaryDirectory.path + "/oritsubushi-\(label)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let cli = CLIRunner(ledger: root + "/ledger")
        for arguments in [["init", "--device", "phone"]] + setup {
            let result = try! cli.run(arguments)
            precondition(result.status == 0, "fixture: \(arguments): \(result.stderr)")
        }
        try? FileManager.default.removeItem(atPath: root + "/ledger/ui-state.json")
    }

    /// A fresh copy: its work directory (the ledger is `ledger` inside it) and a runner on it.
    func copy() throws -> (work: String, cli: CLIRunner) {
        let work = FileManager.default.temporaryDirectory.path + "/oritsubushi-copy-\(UUID().uuidString.prefix(8))"
        try FileManager.default.copyItem(atPath: root, toPath: work)
        return (work, CLIRunner(ledger: work + "/ledger"))
    }
}
