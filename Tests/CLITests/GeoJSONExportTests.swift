import Foundation
import LedgerTestSupport
import Testing

/// `export --format geojson [--lines]` (Schemas/import-export.md, "GeoJSON") on the bundled
/// catalogue: the output obeys RFC 7946's structural rules (checked below by a small checker of
/// our own) and its counts agree with the catalogue and the projection.
@Suite(.serialized) struct GeoJSONExportTests {
    /// Completions: 小田原 (JR東海) with a memo, 東京 (JR東日本, on five lines), 津 (伊勢鉄道) date unknown.
    static let fixture = BundledLedgerFixture(label: "geojson", setup: [
        ["complete", "120004", "2013-09-01"], ["memo", "120004", "line 1\n\"quoted\""],
        ["complete", "202919", "2012-05"], ["complete", "300260", "unknown"],
    ])

    /// The RFC 7946 rules a reader relies on; each violation is one message.
    struct Checker {
        var problems: [String] = []

        mutating func collection(_ value: Any?) {
            guard let object = value as? [String: Any] else { return problems.append("the root is not an object") }
            guard object["type"] as? String == "FeatureCollection" else { return problems.append("the root is not a FeatureCollection") }
            // §7.1: a FeatureCollection has no coordinates, geometries, geometry or properties.
            for member in ["coordinates", "geometries", "geometry", "properties"] where object[member] != nil {
                problems.append("the FeatureCollection has a '\(member)' member")
            }
            guard let features = object["features"] as? [Any] else { return problems.append("features is not an array") }
            let box = object["bbox"].map { bbox($0) } ?? nil
            for (index, feature) in features.enumerated() { self.feature(feature, index, box) }
        }

        /// §5: [west, south, east, north], numbers, south ≤ north (west > east only across the antimeridian).
        mutating func bbox(_ value: Any) -> [Double]? {
            guard let numbers = value as? [Any], numbers.count == 4, numbers.allSatisfy(isNumber) else {
                problems.append("bbox is not four numbers"); return nil
            }
            let box = numbers.map { ($0 as! NSNumber).doubleValue }
            if box[1] > box[3] || box[0] > box[2] { problems.append("bbox \(box) is not west, south, east, north") }
            return box
        }

        mutating func feature(_ value: Any, _ index: Int, _ box: [Double]?) {
            guard let feature = value as? [String: Any], feature["type"] as? String == "Feature" else {
                return problems.append("feature \(index) is not a Feature")
            }
            // §3.2: geometry and properties members must exist (object or null); no FeatureCollection members.
            for member in ["coordinates", "geometries", "features"] where feature[member] != nil {
                problems.append("feature \(index) has a '\(member)' member")
            }
            guard feature["properties"] is [String: Any] || feature["properties"] is NSNull else {
                return problems.append("feature \(index) has no properties object")
            }
            guard let geometry = feature["geometry"] as? [String: Any] else {
                return problems.append("feature \(index) has no geometry object")
            }
            for member in ["properties", "geometry", "features"] where geometry[member] != nil {
                problems.append("feature \(index)'s geometry has a '\(member)' member")
            }
            switch geometry["type"] as? String {
            case "Point": position(geometry["coordinates"], index, box)
            case "LineString":
                guard let positions = geometry["coordinates"] as? [Any], positions.count >= 2 else {
                    return problems.append("feature \(index): a LineString needs two or more positions")
                }
                for p in positions { position(p, index, box) }
            default: problems.append("feature \(index) has geometry type \(geometry["type"] ?? "none")")
            }
        }

        /// §3.1.1: [longitude, latitude] (an optional altitude), numbers only, no deeper nesting.
        mutating func position(_ value: Any?, _ index: Int, _ box: [Double]?) {
            guard let numbers = value as? [Any], (2...3).contains(numbers.count), numbers.allSatisfy(isNumber) else {
                return problems.append("feature \(index): a position is not 2 or 3 numbers")
            }
            let lng = (numbers[0] as! NSNumber).doubleValue, lat = (numbers[1] as! NSNumber).doubleValue
            if !(-180...180).contains(lng) || !(-90...90).contains(lat) {
                problems.append("feature \(index): [\(lng), \(lat)] is out of range")
            }
            if let box, !(box[0]...box[2]).contains(lng) || !(box[1]...box[3]).contains(lat) {
                problems.append("feature \(index): [\(lng), \(lat)] is outside the bbox")
            }
        }

        func isNumber(_ value: Any) -> Bool {
            guard let number = value as? NSNumber else { return false }
            // JSON true/false arrive as NSNumber too, with the objCType of a char.
            return String(cString: number.objCType) != "c" && number.doubleValue.isFinite
        }
    }

    @Test func theCheckerRejectsWhatRFC7946Forbids() throws {
        let bad: [String] = [
            #"{"type":"FeatureCollection","features":{}}"#,
            #"{"type":"FeatureCollection","properties":{},"features":[]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[[139,35]]},"properties":{}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[35,200]},"properties":{}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[139,35]]},"properties":{}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[139,35]}}]}"#,
            #"{"type":"FeatureCollection","bbox":[140,30,130,40],"features":[]}"#,
            #"{"type":"FeatureCollection","bbox":[130,30,135,40],"features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[139,35]},"properties":{}}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":["139",35]},"properties":null}]}"#,
        ]
        for text in bad {
            var checker = Checker()
            checker.collection(try JSONSerialization.jsonObject(with: Data(text.utf8)))
            #expect(!checker.problems.isEmpty, "accepted: \(text)")
        }
        var checker = Checker()
        checker.collection(try JSONSerialization.jsonObject(with: Data(
            #"{"type":"FeatureCollection","bbox":[130,30,140,40],"features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[139,35],[139.5,35.5]]},"properties":null}]}"#.utf8)))
        #expect(checker.problems.isEmpty, "\(checker.problems)")
    }

    static func features(_ text: String) throws -> (Checker, [[String: Any]]) {
        let root = try JSONSerialization.jsonObject(with: Data(text.utf8))
        var checker = Checker()
        checker.collection(root)
        return (checker, ((root as? [String: Any])?["features"] as? [[String: Any]]) ?? [])
    }

    static func kind(_ feature: [String: Any]) -> String? { (feature["geometry"] as? [String: Any])?["type"] as? String }

    @Test func stationsAndLinesFollowTheRulesAndTheCounts() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try cli.run("export", "--format", "geojson", "--lines")
        #expect(result.status == 0, "\(result.stderr)")
        let (checker, features) = try Self.features(result.stdout)
        #expect(checker.problems.isEmpty, "\(checker.problems.prefix(5))")

        // Every enabled station once (Schemas/domain-rules.md §12: 9,520), every enabled line once (623).
        let points = features.filter { Self.kind($0) == "Point" }.map { $0["properties"] as! [String: Any] }
        let lines = features.filter { Self.kind($0) == "LineString" }.map { $0["properties"] as! [String: Any] }
        #expect(points.count == 9520 && Set(points.map { $0["station"] as! Int }).count == 9520)
        #expect(lines.count == 623 && Set(lines.map { $0["line"] as! Int }).count == 623)
        for p in points {
            #expect(Set(p.keys) == ["station", "name", "yomi", "operator", "lines", "pref", "comp_date", "completed", "memo"])
        }
        for l in lines {
            #expect(Set(l.keys) == ["line", "name", "operator", "total", "completed", "ratio_permille"])
        }
        // The stations_lines rows joining an enabled line and an enabled station (Schemas/domain-rules.md §12).
        #expect(lines.map { $0["total"] as! Int }.reduce(0, +) == 10118)

        // Completions agree with the projection (export jsonl), memo included.
        let jsonl = try cli.run("export", "--format", "jsonl").stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let completed = Dictionary(uniqueKeysWithValues: jsonl.filter { ($0["comp_date"] as! Int) > 0 }
            .map { ($0["station"] as! Int, $0["comp_date"] as! Int) })
        #expect(completed == [120004: 20130901, 202919: 20120500, 300260: 1])
        let done = points.filter { $0["completed"] as! Bool }
        #expect(Dictionary(uniqueKeysWithValues: done.map { ($0["station"] as! Int, $0["comp_date"] as! Int) }) == completed)
        let odawara = try #require(points.first { $0["station"] as? Int == 120004 })
        #expect(odawara["memo"] as? String == "line 1\n\"quoted\"" && odawara["pref"] as? Int == 14)
        #expect(odawara["name"] as? String == "小田原駅" && odawara["yomi"] as? String == "おだわら")
        #expect(odawara["lines"] as? [String] == ["東海道新幹線"])
        // 東京駅 202919 is on five lines: each counts it once.
        let completedOnLines = lines.map { $0["completed"] as! Int }.reduce(0, +)
        #expect(completedOnLines == 1 + 5 + 1)
        for l in lines {
            let total = l["total"] as! Int, c = l["completed"] as! Int
            #expect(l["ratio_permille"] as? Int == c * 1000 / total)
        }

        // Coordinates are [lng, lat] in degrees, exactly the catalogue's micro-degrees.
        #expect(result.stdout.contains(#"{"type":"Point","coordinates":[139.155442,35.256281]}"#))
        // A line is drawn in s_sort order: 山手線 12083 starts 品川, 大崎, 五反田 (Schemas/domain-rules.md §10).
        let yamanote = try #require(features.first { ($0["properties"] as? [String: Any])?["line"] as? Int == 12083 })
        let path = (yamanote["geometry"] as! [String: Any])["coordinates"] as! [[Double]]
        let position = { (name: String) in
            features.first { ($0["properties"] as? [String: Any])?["name"] as? String == name
                && ((($0["properties"] as? [String: Any])?["lines"] as? [String])?.contains("山手線") ?? false) }
                .map { ($0["geometry"] as! [String: Any])["coordinates"] as! [Double] }
        }
        #expect(Array(path.prefix(3)) == [try #require(position("品川駅")), try #require(position("大崎駅")), try #require(position("五反田駅"))])
    }

    @Test func withoutLinesToAFileAndRefusals() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let stdout = try cli.run("export", "--format", "geojson").stdout
        let (checker, features) = try Self.features(stdout)
        #expect(checker.problems.isEmpty && features.count == 9520)
        #expect(features.allSatisfy { Self.kind($0) == "Point" })

        let file = work + "/stations.geojson"
        let written = try cli.run("export", "--format", "geojson", "--output", file)
        #expect(written.status == 0 && written.stderr.contains("exported"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == stdout)

        let before = try directorySnapshot(work + "/ledger")
        let misuse = try cli.run("export", "--lines")
        #expect(misuse.status == 64 && misuse.stderr.contains("--lines needs --format geojson"))
        #expect(try directorySnapshot(work + "/ledger") == before)

        let bare = try TemporaryDirectory("geojson-bare")
        defer { bare.remove() }
        let noCatalog = CLIRunner(ledger: bare.sub("l"))
        #expect(try noCatalog.run("init", "--no-catalog").status == 0)
        let refused = try noCatalog.run("export", "--format", "geojson")
        #expect(refused.status == 66 && refused.stderr.contains("no station catalogue"))
        #expect(refused.stdout.isEmpty)
    }
}
