import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog

/// `nearby` (Schemas/domain-rules.md §26): distances on the apps' sphere, their labels, the query against an
/// independent check on the bundled catalogue, and the command end to end.
@Suite(.serialized) struct NearbyTests {
    /// The apps' own formula (iOS Station.m, Android Station.java: the spherical law of cosines
    /// written with atan), in metres: the oracle for GreatCircle.metres.
    static func appsMetres(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
        let y1 = lat1 * .pi / 180, x1 = lng1 * .pi / 180, y2 = lat2 * .pi / 180, x2 = lng2 * .pi / 180
        let deg = sin(y1) * sin(y2) + cos(y1) * cos(y2) * cos(x2 - x1)
        return 6_378_137 * (atan(-deg / (-deg * deg + 1).squareRoot()) + .pi / 2)
    }

    /// A ledger made by a bare `init` (the bundled catalogue), shared by the tests that only read it.
    static let bundled: (dir: TemporaryDirectory, cli: CLIRunner, geometry: CatalogGeometry) = {
        let dir = try! TemporaryDirectory("nearby")
        let cli = CLIRunner(ledger: dir.sub("l"), environment: ["ORITSUBUSHI_LANG": "", "LANG": "C.UTF-8"])
        precondition(try! cli.run("init", "--device", "phone").status == 0)
        let store = try! CatalogStore.open(ledgerDirectory: dir.sub("l"))!
        return (dir, cli, try! CatalogGeometry.load(from: store))
    }()

    static let labels: [(Double, String)] = [
        (0, "すぐそば"), (9.99, "すぐそば"), (10, "すぐそば"), (10.5, "約10 m"), (999.9, "約999 m"),
        (1000, "約1.0 km"), (1049, "約1.0 km"), (1051, "約1.1 km"), (9949, "約9.9 km"), (9960, "約10.0 km"),
        (10_000, "約10 km"), (12_999, "約12 km"), (123_456, "約123 km"),
    ]

    @Test(arguments: labels) func theAppsLabels(metres: Double, label: String) {
        #expect(GreatCircle.label(metres: metres) == label)
    }

    @Test func distancesOnTheAppsSphere() {
        // One degree along a meridian and along the equator is R·π/180.
        let degree = 6_378_137 * Double.pi / 180
        #expect(abs(GreatCircle.metres(lat1: 35, lng1: 139, lat2: 36, lng2: 139) - degree) < 1e-6)
        #expect(abs(GreatCircle.metres(lat1: 0, lng1: 10, lat2: 0, lng2: 11) - degree) < 1e-6)
        #expect(abs(GreatCircle.metres(lat1: 0, lng1: 0, lat2: 0, lng2: 180) - 6_378_137 * Double.pi) < 1e-6)
        #expect(GreatCircle.metres(lat1: 35.256281, lng1: 139.155442, lat2: 35.256281, lng2: 139.155442) == 0)
        // Seeded: symmetric, the triangle inequality, and the apps' formula wherever it is precise.
        var random = SeededGenerator(seed: 13_2)
        for _ in 0..<2000 {
            let p = (Double.random(in: 24...46, using: &random), Double.random(in: 122...154, using: &random))
            let q = (Double.random(in: 24...46, using: &random), Double.random(in: 122...154, using: &random))
            let r = (Double.random(in: 24...46, using: &random), Double.random(in: 122...154, using: &random))
            let pq = GreatCircle.metres(lat1: p.0, lng1: p.1, lat2: q.0, lng2: q.1)
            let qp = GreatCircle.metres(lat1: q.0, lng1: q.1, lat2: p.0, lng2: p.1)
            let qr = GreatCircle.metres(lat1: q.0, lng1: q.1, lat2: r.0, lng2: r.1)
            let pr = GreatCircle.metres(lat1: p.0, lng1: p.1, lat2: r.0, lng2: r.1)
            #expect(abs(pq - qp) < 1e-6)
            #expect(pr <= pq + qr + 1e-6)
            #expect(abs(pq - Self.appsMetres(p.0, p.1, q.0, q.1)) < 0.5, "\(p) \(q)")
        }
    }

    /// Seeded centres, limits, filters and completions on the full catalogue: the answer is
    /// ordered, filtered, as long as it should be, and nothing left out is nearer than the last
    /// station listed (by the apps' own formula, to a tolerance of its precision).
    @Test func theQueryAgainstTheAppsFormula() {
        let geometry = Self.bundled.geometry
        #expect(geometry.stations.count == 9520)
        var random = SeededGenerator(seed: 1302)
        for trial in 0..<60 {
            let completed = Set(geometry.stations.map(\.id).filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
            // 全駅, 済 or 未.
            let admits: (UInt32) -> Bool = [{ _ in true }, { completed.contains($0) }, { !completed.contains($0) }]
                .randomElement(using: &random)!
            let limit = [0, 1, 5, 20, 300].randomElement(using: &random)!
            let query = NearbyQuery(latitude: Double.random(in: 30...44, using: &random),
                                    longitude: Double.random(in: 129...145, using: &random), limit: limit)
            let hits = query.run(geometry, admits: admits)
            let admitted = geometry.stations.filter { admits($0.id) }
            #expect(hits.count == (limit == 0 ? admitted.count : min(limit, admitted.count)), "trial \(trial)")
            #expect(hits.allSatisfy { admits($0.station.id) })
            #expect(zip(hits, hits.dropFirst()).allSatisfy { ($0.metres, $0.station.id) < ($1.metres, $1.station.id) })
            let apps = { (s: CatalogGeometry.Station) in Self.appsMetres(query.latitude, query.longitude, s.latitude, s.longitude) }
            for hit in hits { #expect(abs(apps(hit.station) - hit.metres) < 0.5) }
            if let last = hits.last {
                let listed = Set(hits.map(\.station.id))
                let nearerLeftOut = admitted.filter { !listed.contains($0.id) && apps($0) < apps(last.station) - 0.5 }
                #expect(nearerLeftOut.isEmpty, "trial \(trial): \(nearerLeftOut.map(\.id))")
            }
        }
    }

    /// 小田原駅 is five stations at one position (Schemas/domain-rules.md §6): they come first, by s_id.
    @Test func stationsAtOnePositionComeFirstBySID() throws {
        let odawara = try #require(Self.bundled.geometry.station(120004))
        let hits = NearbyQuery(latitude: odawara.latitude, longitude: odawara.longitude, limit: 6)
            .run(Self.bundled.geometry)
        #expect(hits.prefix(5).map(\.station.id) == [120004, 202945, 300290, 302238, 304332])
        #expect(hits.prefix(5).allSatisfy { $0.metres == 0 })
        #expect(hits[5].metres > 10)
    }

    @Test func theCommandInTextAndJSON() throws {
        let dir = try TemporaryDirectory("nearby-cli")
        defer { dir.remove() }
        try FileManager.default.copyItem(atPath: Self.bundled.dir.sub("l"), toPath: dir.sub("l"))
        let cli = CLIRunner(ledger: dir.sub("l"), environment: ["ORITSUBUSHI_LANG": "", "LANG": "C.UTF-8"])
        let run = { (arguments: [String]) in try cli.run(arguments) }
        #expect(try run(["complete", "302238", "2013-09-01"]).status == 0)

        let text = try run(["nearby", "120004", "--limit", "6"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines.prefix(5).allSatisfy { $0.hasPrefix("すぐそば  ") })
        #expect(lines[0].hasPrefix("すぐそば  120004  小田原駅  東海旅客鉄道  "))
        #expect(lines[3].hasPrefix("すぐそば  302238  小田原駅  小田急電鉄  ") && lines[3].hasSuffix("  2013-09-01"))
        #expect(lines[5].hasPrefix("約"))

        // By name with a qualifier, the same station; the default limit is 20.
        let byName = try run(["nearby", "小田原", "--operator", "JR東海"])
        #expect(byName.status == 0, "\(byName.stderr)")
        #expect(byName.stdout.split(separator: "\n").count == 20)
        #expect(byName.stdout.hasPrefix(lines[0] + "\n"))

        let json = try run(["nearby", "120004", "--show", "completed", "--json"])
        #expect(json.stdout.split(separator: "\n").count == 1, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["station", "name", "lat", "lng", "comp_date", "completed", "operator", "lines", "distance_m"])
        #expect(object["station"] as? Int == 302238)
        #expect(object["lat"] as? Double == 35.256281 && object["lng"] as? Double == 139.155442)
        #expect(object["comp_date"] as? Int == 20130901 && object["completed"] as? Bool == true)
        #expect(object["distance_m"] as? Double == 0)
        #expect(json.stdout.hasPrefix("{\"station\":302238,\"name\":\"小田原駅\",\"lat\":35.256281,\"lng\":139.155442,"))

        // --at: a point; the nearest stations first, --limit 0 lists every admitted one.
        let at = try run(["nearby", "--at", "35.681236,139.767125", "--limit", "3", "--json"])
        #expect(at.status == 0, "\(at.stderr)")
        let distances = at.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["distance_m"] as? Double
        }
        #expect(distances.count == 3 && distances == distances.sorted() && distances[0] < 300)
        let incomplete = try run(["nearby", "--at", "35,135", "--limit", "0", "--show", "incomplete"])
        #expect(incomplete.stdout.split(separator: "\n").count == 9519)
    }

    /// Bad input: exit 64 (usage) or 65 (a station without a position), one sentence, nothing written.
    static let refusals: [([String], Int32, String)] = [
        (["nearby"], 64, "give a STATION or --at LAT,LNG"),
        (["nearby", "120004", "--at", "35,139"], 64, "not both"),
        (["nearby", "--at", "35"], 64, "--at '35' is not LAT,LNG"),
        (["nearby", "--at", "91,139"], 64, "--at '91,139' is not LAT,LNG"),
        (["nearby", "--at", "35,north"], 64, "is not LAT,LNG"),
        (["nearby", "--at", "35,139", "--limit=-1"], 64, "--limit must be 0 (all) or a positive number"),
        (["nearby", "--at", "35,139", "--show", "some"], 64, "--show"),
        (["nearby", "存在しない駅"], 65, "存在しない駅"),
        (["nearby", "999999"], 65, "999999"),
    ]

    @Test(arguments: refusals) func badInput(arguments: [String], status: Int32, message: String) throws {
        let ledger = Self.bundled.dir.sub("l")
        let before = try directorySnapshot(ledger)
        let result = try Self.bundled.cli.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try directorySnapshot(ledger) == before, "\(arguments)")
    }
}
