import Foundation
import LedgerTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Through the built executable: what a daily user expects of the small things
/// (help and version, dates as typed, `today --memo`, the catalogue without a ledger, errors of
/// the network and of a damaged segment in one sentence, plurals).
@Suite struct SmallThingsTests {
    static let fixture = BundledLedgerFixture(label: "small", setup: [])

    @Test("help: a command that does not exist is a usage error", arguments: [
        (["help", "nosuch"], Int32(64), "'nosuch' is not a command"),
        (["help", "server", "nosuch"], 64, "'nosuch' is not a command of 'server'"),
        (["help", "complete"], 0, ""),
        (["help", "server", "users"], 0, ""),
    ])
    func helpTopics(_ arguments: [String], _ status: Int32, _ phrase: String) throws {
        let result = try CLIRunner(ledger: nil).run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        if status == 0 {
            #expect(result.stdout.contains("USAGE"), "\(arguments): \(result.stdout)")
        } else {
            #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(phrase), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stdout.isEmpty)
        }
    }

    @Test("--version names the version and the segment formats")
    func version() throws {
        let result = try CLIRunner(ledger: nil).run("--version")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("oritsubushi 0."), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("(segments: reads formats 1, 2; writes format 2)\n"), "\(result.stdout)")
    }

    @Test("dates as people type them: unpadded, full-width digits and dashes", arguments: [
        ("2013-9-1", "2013-09-01"), ("2013-9", "2013-09"), ("２０１３−０９−０１", "2013-09-01"), ("２０１３-09-01", "2013-09-01"),
        ("２０１３－９", "2013-09"), ("２０１３", "2013"), ("　2013-9-01　", "2013-09-01"),
    ])
    func typedDates(_ typed: String, _ canonical: String) throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try cli.run("complete", "201111", typed)
        #expect(result.status == 0, "\(typed): \(result.stderr)")
        #expect(result.stdout.hasPrefix("201111  津駅  東海旅客鉄道  紀勢本線: date \(canonical) (event"), "\(typed): \(result.stdout)")
        let found = try cli.run("station", "find", "--date", typed)
        #expect(found.stdout.contains("201111"), "\(typed): station find --date: \(found.stderr)")
    }

    @Test("today --memo sets the memo with today's date")
    func todayMemo() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try cli.run("today", "201111", "--memo", "朝の列車")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("201111  津駅  東海旅客鉄道  紀勢本線: date 2026-11-22, memo set (event"), "\(result.stdout)")
        #expect(try cli.run("history", "201111", "--format", "jsonl").stdout.contains("\"memo\":\"朝の列車\""))
    }

    @Test("station find, nearby and map answer from the bundled catalogue when there is no ledger", arguments: [
        (["station", "find", "津"], "301230  津駅"),
        (["nearby", "小田原", "--operator", "JR東海", "--limit", "3"], "120004  小田原駅"),
        (["map", "--center", "35.681,139.767", "--span", "0.1,0.1"], "pins at zoom"),
    ])
    func catalogueWithoutLedger(_ arguments: [String], _ expected: String) throws {
        let scratch = try TemporaryDirectory("no-ledger")
        defer { scratch.remove() }
        let result = try CLIRunner(ledger: scratch.sub("nothing-here")).run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(result.stdout.contains(expected), "\(arguments): \(result.stdout)")
        #expect(result.stderr.hasPrefix("note: no ledger at ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.sub("nothing-here")), "nothing is created")
    }

    @Test("generate draws real stations from the bundled catalogue by default")
    func generateUsesTheBundledCatalogue() throws {
        let scratch = try TemporaryDirectory("generate")
        defer { scratch.remove() }
        let cli = CLIRunner(ledger: scratch.sub("g"))
        #expect(try cli.run("generate", "--events", "300", "--seed", "4").status == 0)
        let replayed = Set(try cli.run("replay", "--format", "jsonl").stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["station"] as? Int
        })
        let bundled = Set(try CLIRunner(ledger: scratch.sub("none")).run("station", "find", "--include-disabled", "--json").stdout
            .split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["station"] as? Int
            })
        #expect(replayed.count > 20 && bundled.count > 9_000)
        #expect(replayed.isSubset(of: bundled), "stations not in the catalogue: \(replayed.subtracting(bundled).prefix(5))")
    }

    @Test("a damaged segment's error names repair --from")
    func corruptSegmentNamesRepair() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        for station in ["201111", "300260"] { #expect(try cli.run("complete", station, "2013").status == 0) }
        let segment = work + "/ledger/segments/00000001.seg"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
        bytes[60] ^= 0x55
        try bytes.write(to: URL(fileURLWithPath: segment))
        let result = try cli.run("verify")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("00000001.seg") && result.stderr.contains("oritsubushi repair --from DIR"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("serve on a busy port says so in one sentence (exit 69)")
    func servePortInUse() throws {
        let scratch = try TemporaryDirectory("busy-port")
        defer { scratch.remove() }
        let (fd, port) = try Self.listeningSocket()
        defer { close(fd) }
        let result = try CLIRunner(ledger: nil).run("server", "serve", "--data", scratch.sub("data"), "--port", String(port))
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("error: port \(port) is already in use"), "\(result.stderr)")
    }

    @Test("sync to a closed port says so in one sentence (exit 69)")
    func syncConnectionRefused() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (fd, port) = try Self.listeningSocket()
        close(fd)   // now nothing listens there
        let result = try cli.run("sync", "--server", "http://127.0.0.1:\(port)", "--token", "t")
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr == "error: cannot reach http://127.0.0.1:\(port): connection refused\n", "\(result.stderr)")
    }

    @Test("counts read as English: 1 event, 2 events")
    func plurals() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(try cli.run("status").stdout.contains(": 1 event\n"), "the catalogue version is the device's one event")
        #expect(try cli.run("complete", "201111", "2013").status == 0)
        #expect(try cli.run("status").stdout.contains(": 2 events\n"))
        let tsv = work + "/one.tsv"
        try "300260\t20130901\t1700000000\t\n".write(toFile: tsv, atomically: true, encoding: .utf8)
        #expect(try cli.run("import", "oritsubushi-tsv", tsv).stdout.contains("imported 1 row: 1 event appended, 0 rows unchanged"))
    }

    /// A socket listening on a free loopback port, and the port.
    static func listeningSocket() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
