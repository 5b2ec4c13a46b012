import Foundation
import LedgerTestSupport
import Testing

/// `oritsubushi map` end to end on the bundled catalogue (Schemas/map.md): the JSON Lines keys, GeoJSON,
/// text, --show, --limit and the refusals of malformed viewports (exit 64, one sentence, nothing written).
@Suite(.serialized) struct MapCommandTests {
    /// 東京駅 (JR東海, 120001) completed.
    static let fixture = BundledLedgerFixture(label: "map", setup: [["complete", "120001", "2013-09-01"]])
    static let tokyo = "35.63,139.71,35.73,139.82"

    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func jsonLinesCarryTheDocumentedKeys() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try cli.run("map", "--bbox", Self.tokyo, "--format", "json")
        #expect(result.status == 0, "\(result.stderr)")
        let pins = try Self.objects(result.stdout)
        #expect(!pins.isEmpty && pins.count <= 100)
        for pin in pins {
            #expect(Set(pin.keys).subtracting(["stations"]) == ["station", "name", "lat", "lng", "zoom", "min_zoom", "comp_date", "completed", "operator", "lines"])
            if let stations = pin["stations"] as? [[String: Any]] {
                #expect(stations.count > 1 && stations.contains { $0["station"] as? Int == pin["station"] as? Int })
            }
            let lat = try #require(pin["lat"] as? Double), lng = try #require(pin["lng"] as? Double)
            #expect((35.63..<35.73).contains(lat) && (139.71..<139.82).contains(lng))
            #expect(try #require(pin["min_zoom"] as? Int) <= (try #require(pin["zoom"] as? Int)))
            #expect((pin["completed"] as? Bool) == ((pin["comp_date"] as? Int ?? 0) > 0))
        }
        let all = try Self.objects(try cli.run("map", "--bbox", Self.tokyo, "--limit", "0", "--format", "json").stdout)
        let tokyo = try #require(all.first { $0["station"] as? Int == 120001 })
        #expect(tokyo["name"] as? String == "東京駅")
        #expect(tokyo["lat"] as? Double == 35.680959 && tokyo["lng"] as? Double == 139.767294)
        #expect(tokyo["completed"] as? Bool == true && tokyo["comp_date"] as? Int == 20130901)
        #expect(tokyo["operator"] as? String == "東海旅客鉄道")
        #expect(tokyo["min_zoom"] as? Int == 0)
        // 東京 of three operators share the point: every pin there lists all three, the completed first.
        let listed = try #require(tokyo["stations"] as? [[String: Any]]).map { $0["station"] as? Int }
        #expect(listed == [120001, 120049, 202919])
        #expect(all.count > pins.count)
    }

    @Test func showFiltersByCompletion() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let completed = try Self.objects(try cli.run("map", "--bbox", Self.tokyo, "--show", "completed", "--format", "json").stdout)
        #expect(completed.map { $0["station"] as? Int } == [120001])
        let incomplete = try Self.objects(try cli.run("map", "--bbox", Self.tokyo, "--show", "incomplete", "--limit", "0", "--format", "json").stdout)
        #expect(!incomplete.isEmpty && incomplete.allSatisfy { $0["completed"] as? Bool == false })
    }

    @Test func centreAndSpanEqualTheirBox() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let byCentre = try cli.run("map", "--center", "35.681,139.767", "--span", "0.1,0.1", "--format", "json")
        let byBox = try cli.run("map", "--bbox", "35.631,139.717,35.731,139.817", "--format", "json")
        #expect(byCentre.status == 0 && !byCentre.stdout.isEmpty)
        #expect(byCentre.stdout == byBox.stdout)
    }

    /// Japan's archipelago fills few cells of a country-wide grid, so such a view shows far fewer
    /// pins than the limit (Schemas/map.md §6); never more.
    @Test func wholeJapanRespectsTheLimit() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        for limit in [4, 50, 100, 500] {
            let pins = try Self.objects(try cli.run("map", "--bbox", "24,122,46,146", "--limit", "\(limit)", "--format", "json").stdout)
            #expect(pins.count <= limit && pins.count >= 2)
        }
        #expect(try Self.objects(try cli.run("map", "--bbox", "20,120,46,150", "--limit", "0", "--format", "json").stdout).count == 9520)
    }

    @Test func geoJSONIsAFeatureCollectionOfPoints() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try cli.run("map", "--bbox", Self.tokyo, "--format", "geojson")
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "FeatureCollection")
        let features = try #require(json["features"] as? [[String: Any]])
        #expect(!features.isEmpty)
        for feature in features {
            #expect(feature["type"] as? String == "Feature")
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Point")
            let coordinates = try #require(geometry["coordinates"] as? [Double])
            #expect(coordinates.count == 2 && (139.71..<139.82).contains(coordinates[0]) && (35.63..<35.73).contains(coordinates[1]))
            #expect((feature["properties"] as? [String: Any])?["station"] is Int)
        }
    }

    @Test func textListsPinsAndTheZoom() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try cli.run("map", "--bbox", Self.tokyo, "--show", "completed", "--lang", "en")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "120001  東京駅  東海旅客鉄道  東海道新幹線  2013-09-01")
        #expect(lines.last?.hasPrefix("1 pin at zoom ") == true)
    }

    static let badArguments: [[String]] = [
        ["--bbox", "35,139,36"], ["--bbox", "36,139,35,140"], ["--bbox", "35,140,36,139"], ["--bbox", "a,b,c,d"],
        ["--bbox", "35,139,91,140"], ["--bbox", "35,139,36,181"], ["--center", "35,139"], ["--span", "1,1"], [],
        ["--center", "35,139", "--span", "0,1"], ["--center", "95,139", "--span", "1,1"], ["--center", "35,139", "--span", "1"],
        ["--bbox", "35,139,36,140", "--center", "35,139", "--span", "1,1"], ["--bbox", "35,139,36,140", "--limit", "2"],
        ["--bbox", "35,139,36,140", "--limit", "-1"], ["--bbox", "35,139,36,140", "--show", "done"],
        ["--bbox", "35,139,36,140", "--format", "csv"],
    ]

    @Test(arguments: badArguments) func malformedViewportsAreUsageErrors(_ arguments: [String]) throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let before = try directorySnapshot(work + "/ledger")
        let result = try cli.run(["map"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.split(separator: "\n").count == 1)
        #expect(try directorySnapshot(work + "/ledger") == before)
    }
}
