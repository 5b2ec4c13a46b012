import Foundation
import LedgerTestSupport
import Testing

/// The crash model (RELIABILITY.md, CrashableFileSystem) assumes the order in which the real
/// file system is told to make things durable; this checks that order on the disk, with the
/// built binary under `strace` (Debian's strace): an append syncs its frames, then the
/// watermark's slot, before the command reports success; a file made by rename (ledger.json,
/// a watermark) is followed by a sync of its directory.
@Suite("The durability order on the real file system (strace)", .requires(.strace))
struct DiskSyncOrderTests {
    static var straceTool: String? { TestComponent.straceTool }

    /// One system call the trace shows, with the path its descriptor was opened on.
    struct Call {
        let name: String
        let path: String
        let line: Int
    }

    /// Runs `arguments` under strace and returns its exit status and the sync/rename calls in order.
    static func trace(_ arguments: [String], ledger: String) throws -> (status: Int32, calls: [Call]) {
        let log = ledger + ".strace"
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        let result = try CLIRunner(ledger: ledger).runShell(
            "\(straceTool!) -f -qq -e trace=openat,open,fsync,fdatasync,rename,renameat,renameat2 -o '\(log)' \"$0\" \(quoted)")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: log)
        return (result.status, parse(text))
    }

    /// Maps descriptors to paths from `openat` results and names each sync by its path; a rename
    /// by its target. (Descriptors are per process; `-f` prefixes each line with the pid.) A call
    /// that another thread interrupted is split by strace into `… <unfinished ...>` and
    /// `<... NAME resumed>…` lines, more often the busier the machine: the two are joined first.
    static func parse(_ text: String) -> [Call] {
        var paths: [String: String] = [:]  // "pid fd" → path
        var calls: [Call] = []
        var unfinished: [String: String] = [:]  // pid → the call's first part
        for (index, line) in text.split(separator: "\n").enumerated() {
            let words = line.split(separator: " ", maxSplits: 1)
            guard words.count == 2 else { continue }
            let pid = String(words[0])
            var call = String(words[1]).trimmingCharacters(in: .whitespaces)
            if call.hasSuffix("<unfinished ...>") {
                unfinished[pid] = String(call.dropLast("<unfinished ...>".count))
                continue
            }
            if call.hasPrefix("<... "), let resumed = call.range(of: " resumed>") {
                call = (unfinished.removeValue(forKey: pid) ?? "") + call[resumed.upperBound...]
            }
            if call.hasPrefix("openat(") || call.hasPrefix("open("),
               let path = call.firstMatch(of: /"([^"]*)"/).map({ String($0.1) }),
               let fd = call.firstMatch(of: /= (\d+)$/).map({ String($0.1) }) {
                paths["\(pid) \(fd)"] = path
            } else if let match = call.firstMatch(of: /^(fsync|fdatasync)\((\d+)\)\s+= 0/) {
                calls.append(Call(name: String(match.1), path: paths["\(pid) \(match.2)"] ?? "?", line: index))
            } else if call.hasPrefix("rename"), call.hasSuffix("= 0") {
                let quoted = call.matches(of: /"([^"]*)"/).map { String($0.1) }
                if let target = quoted.last { calls.append(Call(name: "rename", path: target, line: index)) }
            }
        }
        return calls
    }

    static func isDirectorySync(_ call: Call, of file: String) -> Bool {
        call.name != "rename" && (call.path as NSString).standardizingPath == ((file as NSString).deletingLastPathComponent as NSString).standardizingPath
    }

    @Test("init: ledger.json is renamed into place, then its directory is synced")
    func initSyncsTheDirectoryAfterRename() throws {
        let dir = try TemporaryDirectory("strace-init")
        defer { dir.remove() }
        let ledger = dir.sub("ledger")
        let (status, calls) = try Self.trace(["init", "--ledger", ledger], ledger: ledger)
        #expect(status == 0)
        let renames = calls.filter { $0.name == "rename" }
        let metadata = try #require(renames.first { $0.path.hasSuffix("/ledger.json") }, "no rename to ledger.json: \(calls.map(\.path))")
        #expect(calls.contains { $0.line > metadata.line && Self.isDirectorySync($0, of: metadata.path) },
                "no sync of \(ledger) after ledger.json was renamed into place")
        for rename in renames {
            #expect(calls.contains { $0.line > rename.line && Self.isDirectorySync($0, of: rename.path) },
                    "\(rename.path) renamed, its directory never synced after")
        }
    }

    @Test("an append: the segment's frames synced, then the watermark slot, before the command succeeds")
    func appendSyncsFramesThenWatermark() throws {
        let dir = try TemporaryDirectory("strace-append")
        defer { dir.remove() }
        let ledger = dir.sub("ledger")
        #expect(try CLIRunner(ledger: ledger).run("init").status == 0)
        let (status, calls) = try Self.trace(["complete", "202758", "2024-05-03", "--ledger", ledger], ledger: ledger)
        #expect(status == 0)
        let syncs = calls.filter { $0.name != "rename" }
        let segment = try #require(syncs.lastIndex { $0.path.hasSuffix(".seg") }, "no sync of a segment: \(syncs.map(\.path))")
        let watermark = try #require(syncs.lastIndex { $0.path.hasSuffix(".seg.durable") }, "no sync of a watermark: \(syncs.map(\.path))")
        #expect(segment < watermark, "the watermark was synced before the frames it claims: \(syncs.map { "\($0.name) \($0.path)" })")
        #expect(syncs[watermark].name == "fdatasync" || syncs[watermark].name == "fsync")
    }
}

extension TestComponent {
    /// Debian's `strace`, to watch the system calls of the built binary.
    static let straceTool = executable(names: ["strace"], paths: ["/usr/bin/strace"])
    static let strace = TestComponent("strace", remedy: "apt-get install strace; Tools/test installs it as root") { straceTool != nil }
}
