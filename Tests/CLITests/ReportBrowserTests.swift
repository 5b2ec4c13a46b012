import Foundation
import LedgerCatalog
import LedgerTestSupport
import Testing

/// `oritsubushi report` rendered by headless Chromium (docs/ledger-cli.md, "The progress report"):
/// the DOM after the page's own script ran holds one `.line` per enabled line and one `.station`
/// per enabled station, with the completed ones matching the projection (through `stats`,
/// `export` and the catalogue, not the report's code); no `src`/`href` reaches the network except
/// Wikipedia anchors; screenshots at a desktop and a phone size are not blank.
@Suite(.serialized) struct ReportBrowserTests {
    /// A generated history on the bundled catalogue, a local completion with a memo that tries to
    /// inject markup, and its report (built once).
    struct Fixture: Sendable {
        let directory: String
        let cli: CLIRunner
        let report: String
        let html: String
    }

    static let fixture: Fixture = {
        let directory = FileManager.default.temporaryDirectory.path + "/oritsubushi-report-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cli = CLIRunner(ledger: directory + "/ledger")
        for arguments in [
            ["generate", "--events", "20000", "--seed", "7", "--catalog", SharedData.stations176],
            ["catalog", "import"],
            // 東京 of JR東日本's 東海道新幹線 side (120049): three stations share its point.
            ["complete", "120049", "2026-11-01"],
            ["complete", "201111", "2026-11-01", "--memo", "</script><img src=http://example.com/x.png>"],
            ["report", "--output", directory + "/report.html", "--lang", "ja"],
        ] {
            let result = try! cli.run(arguments)
            precondition(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let report = directory + "/report.html"
        return Fixture(directory: directory, cli: cli, report: report,
                       html: try! String(contentsOfFile: report, encoding: .utf8))
    }()

    static func occurrences(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Enabled lines and those whose every enabled station is completed, from the catalogue and
    /// `export --format jsonl`.
    static func expectedLines(_ f: Fixture) throws -> (all: Int, completed: Int) {
        let export = try f.cli.run("export", "--format", "jsonl")
        #expect(export.status == 0)
        var completed = Set<UInt32>()
        for line in export.stdout.split(separator: "\n") {
            let row = try json(String(line))
            if let date = row["comp_date"] as? Int, date > 0, let station = row["station"] as? Int { completed.insert(UInt32(station)) }
        }
        let store = try #require(try CatalogStore.open(ledgerDirectory: f.directory + "/ledger"))
        let snapshot = try store.loadSnapshot()
        let enabledStations = Set(snapshot.stations.filter(\.enabled).map(\.id))
        var members: [Int64: [UInt32]] = [:]
        for m in snapshot.memberships where enabledStations.contains(m.stationID) { members[m.lineID, default: []].append(m.stationID) }
        let lines = snapshot.lines.filter(\.enabled)
        let done = lines.filter { line in
            let stations = members[line.id] ?? []
            return !stations.isEmpty && stations.allSatisfy(completed.contains)
        }
        return (lines.count, done.count)
    }

    @Test(.requiresChromium) func domHoldsEveryLineAndStationWithTheProjectionsCompletions() async throws {
        let f = Self.fixture
        let dom = try await Chromium.run(["--dump-dom"], file: f.report, profile: f.directory + "/profile-dom")
        let stats = try await Self.json(try f.cli.run("stats", "prefectures", "--json").stdout)
        let total = try #require(stats["total"] as? Int), completed = try #require(stats["completed"] as? Int)
        #expect(total > 9000 && completed > 1000 && completed < total)
        let done = Self.occurrences("<circle class=\"station completed\"", in: dom)
        let rest = Self.occurrences("<circle class=\"station\"", in: dom)
        #expect(done == completed)
        #expect(done + rest == total)
        let lines = try Self.expectedLines(f)
        let doneLines = Self.occurrences("<polyline class=\"line completed\"", in: dom)
        #expect(doneLines == lines.completed && doneLines > 0)
        #expect(doneLines + Self.occurrences("<polyline class=\"line\"", in: dom) == lines.all)
        #expect(dom.contains("data-stations=\"\(total)\" data-completed=\"\(completed)\""))
        // The latest 20 events and the open conflicts, as `conflicts` counts them.
        let conflicts = try await Self.json(try f.cli.run("conflicts", "--json").stdout)
        #expect(dom.contains("id=\"conflicts\" data-count=\"\(try #require(conflicts["count"] as? Int))\""))
        let events = try #require(dom.components(separatedBy: "<table id=\"events\"").last?.components(separatedBy: "</table>").first)
        #expect(Self.occurrences("<tr>", in: events) == 21)
        // Newest first: the fixture's own completion (at the pinned now) after the generated history.
        let newest = try #require(events.components(separatedBy: "<tr>").dropFirst(2).first)
        #expect(newest.contains("2026/11/22 12:00 JST") && newest.contains(">津駅</a>") && newest.contains("2026年11月1日"), "\(newest)")
        // The hierarchies' totals in the apps' words, and the injected memo kept as text.
        #expect(dom.contains("\(total)駅中 \(completed)駅"))
        #expect(!dom.contains("<img"))
    }

    @Test(.requiresChromium) func noRequestLeavesTheFile() async throws {
        let f = Self.fixture
        #expect(f.html.utf8.count < 3_000_000)
        let dom = try await Chromium.run(["--dump-dom"], file: f.report, profile: f.directory + "/profile-urls")
        var anchors = 0
        for document in [f.html, dom] {
            for match in document.matches(of: #/<([a-zA-Z]+)\b[^>]*?\s(src|href)\s*=\s*"([^"]*)"/#) {
                let url = String(match.output.3).lowercased()
                guard url.hasPrefix("http:") || url.hasPrefix("https:") || url.hasPrefix("//") else { continue }
                #expect(match.output.1 == "a" && url.hasPrefix("https://ja.wikipedia.org/wiki/"), "\(match.output.0)")
                anchors += 1
            }
            #expect(!document.contains("<link") && !document.contains("@import") && !document.contains("url("))
        }
        #expect(anchors > 0)
    }

    /// Taps the centre of the first element `circle` selects, runs `then` (with `svg`, `x`, `y` and
    /// `tip` in scope), and returns the DOM. A probe script appended to a copy of the page; a module
    /// script, so that it runs after the page's map module has drawn (module scripts run in
    /// document order once the page is parsed).
    static func tapProbe(_ f: Fixture, name: String, circle: String, then body: String) async throws -> String {
        let probe = """
            <script type="module">(function(){var c=document.querySelector('\(circle)'),
            svg=document.getElementById('map'),r=c.getBoundingClientRect(),x=r.left+r.width/2,y=r.top+r.height/2;
            function tap(t){svg.dispatchEvent(new PointerEvent(t,{pointerId:1,pointerType:'touch',clientX:x,clientY:y,bubbles:true}));}
            tap('pointerdown');tap('pointerup');var tip=document.getElementById('tip');
            \(body)})();</script></body>
            """
        let page = f.directory + "/\(name).html"
        try f.html.replacingOccurrences(of: "</body>", with: probe).write(toFile: page, atomically: true, encoding: .utf8)
        return try await Chromium.run(["--window-size=1280,900", "--dump-dom"], file: page, profile: f.directory + "/profile-\(name)")
    }

    /// A tap on a completed station opens its details (name, operator, line, date); the wheel
    /// zooms in around the pointer; the probe writes what it saw into the DOM.
    @Test(.requiresChromium) func tapShowsAStationAndTheWheelZooms() async throws {
        let f = Self.fixture
        let dom = try await Self.tapProbe(f, name: "probe", circle: "circle.station.completed[data-station=\"201111\"]", then: """
            var before=svg.getAttribute('viewBox').split(' ').map(Number);
            svg.dispatchEvent(new WheelEvent('wheel',{deltaY:-500,clientX:x,clientY:y,bubbles:true,cancelable:true}));
            var after=svg.getAttribute('viewBox').split(' ').map(Number);
            document.body.setAttribute('data-tip',tip.hidden?'hidden':tip.textContent);
            document.body.setAttribute('data-tip-images',String(tip.querySelectorAll('img').length));
            document.body.setAttribute('data-zoomed',String(after[2]<before[2]*0.8));
            """)
        let tip = try #require(dom.firstMatch(of: #/data-tip="([^"]*)"/#)?.output.1)
        // 201111 is 津 on JR東海's 紀勢本線, completed by the fixture on 2026-11-01 with the memo.
        #expect(tip.contains("津") && tip.contains("東海旅客鉄道") && tip.contains("2026年11月1日"), "\(tip)")
        // The memo's markup is shown as text, never made an element.
        #expect(tip.contains("&lt;img src=http://example.com/x.png&gt;"), "\(tip)")  // as the dumped attribute escapes it
        #expect(dom.contains("data-tip-images=\"0\""), "the memo became markup in the tip")
        #expect(dom.contains("data-zoomed=\"true\""))
    }

    /// Stations that share a point (Schemas/map.md §7): a tap on 東京 lists its three stations of
    /// two operators, the completed ones first, each as its own block of text.
    @Test(.requiresChromium) func tapOnASharedPointListsEveryStationCompletedFirst() async throws {
        let f = Self.fixture
        let dom = try await Self.tapProbe(f, name: "tokyo", circle: "circle.station[data-station=\"120049\"]", then: """
            document.body.setAttribute('data-tip-stations',Array.from(tip.querySelectorAll('.tip-station')).map(function(b){
              return b.dataset.station+':'+(document.querySelector('circle.station.completed[data-station="'+b.dataset.station+'"]')?1:0);}).join(' '));
            document.body.setAttribute('data-tip-names',String(tip.querySelectorAll('.tip-station b').length));
            """)
        let listed = try #require(dom.firstMatch(of: #/data-tip-stations="([^"]*)"/#)?.output.1).split(separator: " ")
            .map { $0.split(separator: ":").map(String.init) }
        #expect(Set(listed.map { $0[0] }) == ["120001", "120049", "202919"], "\(listed)")
        let flags = listed.map { $0[1] }
        #expect(flags.first == "1" && flags == flags.sorted(by: >), "completed first: \(listed)")
        #expect(listed.contains(["120049", "1"]))
        #expect(dom.contains("data-tip-names=\"3\""))
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 24, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (u32(16), u32(20))
    }

    /// A blank page of the same size compresses to a few KB; the report's map, bars and text are
    /// an order of magnitude more.
    @Test(.requiresChromium, arguments: [(1280, 900), (390, 844)])
    func screenshotIsNotBlank(width: Int, height: Int) async throws {
        let f = Self.fixture
        let blankPage = f.directory + "/blank.html"
        try "<!DOCTYPE html><html><body></body></html>".write(toFile: blankPage, atomically: true, encoding: .utf8)
        var sizes: [Int] = []
        for (page, name) in [(f.report, "report"), (blankPage, "blank")] {
            let png = f.directory + "/\(name)-\(width).png"
            _ = try await Chromium.run(["--window-size=\(width),\(height)", "--screenshot=\(png)"], file: page,
                                 profile: f.directory + "/profile-\(name)-\(width)")
            let data = try Data(contentsOf: URL(fileURLWithPath: png))
            let size = try #require(Self.pngSize(data))
            #expect(size.0 >= width && size.1 >= height)
            sizes.append(data.count)
        }
        #expect(sizes[0] > 10 * sizes[1], "report \(sizes[0]) bytes, blank \(sizes[1])")
    }

    @Test func asOfLanguageAndRefusals() throws {
        let f = Self.fixture
        let early = f.directory + "/early.html"
        let result = try f.cli.run("report", "--output", early, "--as-of", "2000-01-01", "--lang", "en")
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: early, encoding: .utf8)
        #expect(html.contains("data-completed=\"0\"") && html.contains("<html lang=\"en\">") && html.contains("id=\"conflicts\" data-count=\"0\""))
        #expect(f.html.contains("<html lang=\"ja\">") && f.html.contains("駅中"))
        let refused = f.directory + "/refused.html"
        #expect(try f.cli.run("report", "--output", refused, "--as-of", "yesterday").status == 64)
        #expect(try f.cli.run("report", "--output", f.directory + "/no/such/dir/r.html").status == 74)
        let before = try FileManager.default.contentsOfDirectory(atPath: f.directory).sorted()
        #expect(try f.cli.run("report", "--output", f.directory + "/ledger").status == 74)
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.directory).sorted() == before)
        let bare = try TemporaryDirectory("report-bare")
        let empty = CLIRunner(ledger: bare.sub("l"))
        #expect(try empty.run("init", "--no-catalog").status == 0)
        #expect(try empty.run("report", "--output", refused).status == 66)
        #expect(!FileManager.default.fileExists(atPath: refused))
    }
}
