import Foundation
import LedgerTestSupport
import Testing

/// STATION by name through the built executable, on a ledger with the bundled catalogue: every
/// command that takes a STATION, the refusals (several matches, none, bad qualifiers, `today` on a
/// completed station, `last` with nothing to repeat) with nothing written, and the `last` keyword.
@Suite struct StationNameTests {
    /// 津 (近鉄, 301230) completed on 2013-09-01.
    static let fixture = BundledLedgerFixture(label: "names", setup: [["complete", "301230", "2013-09-01"]])

    static let ambiguous = "error: 津 matches 3 stations; add --operator, --line or --pref, or give the s_id"

    struct Use: CustomStringConvertible, Sendable {
        var arguments: [String]
        var stdout: String
        var description: String { arguments.joined(separator: " ") }
    }

    /// Each command with a name (and qualifiers where the name alone is ambiguous).
    static let uses: [Use] = [
        Use(arguments: ["complete", "津", "2014-05", "--operator", "近鉄"], stdout: "301230  津駅  近畿日本鉄道  名古屋線: date 2014-05 (event"),
        Use(arguments: ["complete", "つ", "2014", "--operator", "JR東海"], stdout: "201111  津駅  東海旅客鉄道  紀勢本線: date 2014 (event"),
        Use(arguments: ["complete", "津駅", "2014", "--line", "伊勢線"], stdout: "300260  津駅  伊勢鉄道  伊勢線: date 2014 (event"),
        Use(arguments: ["complete", "津", "2014", "--operator", "伊勢", "--pref", "三重"], stdout: "300260  津駅  伊勢鉄道  伊勢線: date 2014 (event"),
        Use(arguments: ["complete", "駒ケ根", "unknown"], stdout: "200126  駒ヶ根駅  東海旅客鉄道  飯田線: date unknown (event"),
        Use(arguments: ["today", "鳥羽", "--operator", "JR東海"], stdout: "201855  鳥羽駅  東海旅客鉄道  参宮線: date 2026-11-22 (event"),
        Use(arguments: ["today", "津", "--operator", "近鉄", "--force"], stdout: "301230  津駅  近畿日本鉄道  名古屋線: date 2026-11-22 (event"),
        Use(arguments: ["uncomplete", "津", "--operator", "50110"], stdout: "301230  津駅  近畿日本鉄道  名古屋線: date none (event"),
        Use(arguments: ["memo", "ｺﾏｶﾞﾈ", "駒ヶ岳"], stdout: "200126  駒ヶ根駅  東海旅客鉄道  飯田線: memo set (event"),
        Use(arguments: ["history", "津", "--operator", "近鉄"], stdout: "phone#2  station 301230  date 2013-09-01"),
        Use(arguments: ["station", "show", "津", "--operator", "近鉄"], stdout: "301230"),
        Use(arguments: ["replay", "--station", "つ", "--operator", "近畿日本鉄道"], stdout: "phone#2  station 301230  date 2013-09-01"),
        Use(arguments: ["conflicts", "--station", "津", "--pref", "24", "--line", "名古屋線"], stdout: "no conflicts"),
    ]

    @Test(arguments: uses)
    func everyCommandTakesAName(_ use: Use) throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try cli.run(use.arguments)
        #expect(result.status == 0, "\(use): \(result.stderr)")
        #expect(result.stdout.contains(use.stdout), "\(use): \(result.stdout)")
    }

    struct Refusal: CustomStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32 = 65
        /// The first line of stderr starts with this.
        var error: String
        /// Lines after it (candidates).
        var candidates = 0
        var description: String { arguments.joined(separator: " ") }
    }

    static let refusals: [Refusal] = {
        var cases: [Refusal] = []
        for command in [["complete", "津", "2013"], ["today", "津"], ["uncomplete", "津"], ["memo", "津", "m"], ["history", "津"],
                        ["station", "show", "津"], ["replay", "--station", "津"], ["conflicts", "--station", "津"]] {
            cases.append(Refusal(arguments: command, error: ambiguous, candidates: 3))
        }
        cases.append(Refusal(arguments: ["complete", "つ", "2013", "--pref", "三重"],
                             error: "error: つ matches 3 stations; add --operator, --line or --pref, or give the s_id", candidates: 3))
        cases += [
            Refusal(arguments: ["complete", "ゑゑゑ", "2013"], error: "error: no enabled station is named ゑゑゑ"),
            Refusal(arguments: ["complete", "津軽x", "2013"], error: "error: no enabled station is named 津軽x; closest: 津軽"),
            Refusal(arguments: ["complete", "津軽今別", "2013"], error: "error: no enabled station is named 津軽今別"),
            Refusal(arguments: ["complete", "津", "2013", "--operator", "京王"], error: "error: no enabled station is named 津 with the given --operator 京王"),
            Refusal(arguments: ["complete", "津", "2013", "--operator", "存在しない鉄道"], error: "error: no operator matches --operator 存在しない鉄道"),
            Refusal(arguments: ["complete", "津", "2013", "--line", "存在しない線"], error: "error: no line matches --line 存在しない線"),
            Refusal(arguments: ["complete", "津", "2013", "--pref", "48"], error: "error: --pref 48 is neither a prefecture code 1–47"),
            Refusal(arguments: ["complete", "201111", "2013", "--operator", "近鉄"], error: "error: station 201111 does not match the given --operator 近鉄"),
            Refusal(arguments: ["complete", "津", "2027", "--operator", "近鉄"], error: "error: "),
            Refusal(arguments: ["today", "津", "--operator", "近鉄"],
                    error: "error: station 301230 is already completed (2013-09-01); use `complete 301230 today` to change its date"),
            Refusal(arguments: ["today", "301230"],
                    error: "error: station 301230 is already completed (2013-09-01); use `complete 301230 today` to change its date"),
            Refusal(arguments: ["complete", "鳥羽", "last", "--operator", "近鉄"],
                    error: "error: there is no previous date for 'last': no complete or today has succeeded on this device yet"),
            Refusal(arguments: ["complete", "鳥羽", "--operator", "近鉄"], status: 64, error: "error: give STATION and DATE, or --batch FILE"),
        ]
        return cases
    }()

    @Test(arguments: refusals)
    func refusalWritesNothing(_ refusal: Refusal) throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let before = try directorySnapshot(work)
        let result = try cli.run(refusal.arguments)
        #expect(result.status == refusal.status, "\(refusal): \(result.stderr)")
        #expect(snapshotDifferences(before, try directorySnapshot(work)).isEmpty, "\(refusal) changed the ledger")
        #expect(result.stdout.isEmpty, "\(refusal): \(result.stdout)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix(refusal.error) == true, "\(refusal): \(result.stderr)")
        #expect(lines.count == 1 + refusal.candidates, "\(refusal): \(result.stderr)")
        for line in lines.dropFirst() {
            #expect(line.components(separatedBy: "  ").count == 5 && line.contains("津駅") && line.hasSuffix("三重県"), "\(line)")
        }
    }

    /// `last` repeats the date of this device's previous successful complete or today (also a
    /// no-op one), kept in ui-state.json and not in the log; `none` and memo edits leave it.
    @Test func lastRepeatsThePreviousDate() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let events = { try cli.run("replay", "--all", "--format", "jsonl").stdout }
        #expect(try cli.run("complete", "鳥羽", "2014-05", "--operator", "近鉄").status == 0)
        #expect(try cli.run("complete", "新宿", "last", "--operator", "京王").stdout.hasPrefix("300645  新宿駅  京王電鉄  京王線: date 2014-05 (event"))
        #expect(try cli.run("complete", "300645", "none").status == 0)
        #expect(try cli.run("memo", "300645", "x").status == 0)
        #expect(try cli.run("complete", "302192", "LAST").stdout.hasPrefix("302192  新宿駅  小田急電鉄  小田原線: date 2014-05 (event"))
        let state = try String(contentsOfFile: work + "/ledger/ui-state.json", encoding: .utf8)
        #expect(state.contains("\"last_date\":\"2014-05\""), "\(state)")
        let log = try events()
        #expect(!log.contains("2014-05") && !log.contains("last"))   // comp_date codes only, no UI state
        #expect(try cli.run("today", "牛ケ原").status == 0)
        #expect(try cli.run("complete", "駒ヶ根", "last").stdout.hasPrefix("200126  駒ヶ根駅  東海旅客鉄道  飯田線: date 2026-11-22 (event"))
        // A no-op complete still counts as the date given.
        #expect(try cli.run("complete", "300645", "2010").status == 0)
        #expect(try cli.run("complete", "300645", "2010").stdout.contains("unchanged"))
        #expect(try cli.run("complete", "201855", "last").stdout.hasPrefix("201855  鳥羽駅  東海旅客鉄道  参宮線: date 2010 (event"))
        #expect(try cli.run("verify").status == 0)
    }

    /// Another device's ui-state.json (a copied directory) and an unreadable one lend no date.
    @Test(arguments: ["{\"device\":\"0000000000000001\",\"last_date\":\"2014\"}", "not json"])
    func lastIgnoresAForeignOrBrokenState(_ content: String) throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        try content.write(toFile: work + "/ledger/ui-state.json", atomically: true, encoding: .utf8)
        let before = try directorySnapshot(work)
        let result = try cli.run("complete", "201111", "last")
        #expect(result.status == 65 && result.stderr.contains("no previous date for 'last'"), "\(result.stderr)")
        #expect(snapshotDifferences(before, try directorySnapshot(work)).isEmpty)
    }
}
