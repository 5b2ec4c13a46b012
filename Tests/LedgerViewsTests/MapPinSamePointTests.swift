import Foundation
import LedgerCatalog
import LedgerCore
@testable import LedgerViews
import Testing

/// Stations that share a position (Schemas/map.md §7): a pin there lists every
/// station at its point, completed first, so the completed one is never hidden under another. On
/// the bundled catalogue, whose 東京 and 小田原 are stations of several operators at one point.
@Suite struct MapPinSamePointTests {
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        /// A box around the point, "S,W,N,E" in degrees.
        var bbox: String
        var completed: [UInt32]
        /// Every station at the point, in the order `stations` must list them.
        var expected: [UInt32]
    }

    static let cases: [Case] = [
        Case(description: "東京, JR東日本's completed", bbox: "35.680,139.766,35.682,139.768",
             completed: [202919], expected: [202919, 120001, 120049]),
        Case(description: "東京, two completed", bbox: "35.680,139.766,35.682,139.768",
             completed: [120049, 120001], expected: [120001, 120049, 202919]),
        Case(description: "東京, none completed", bbox: "35.680,139.766,35.682,139.768",
             completed: [], expected: [120001, 120049, 202919]),
        Case(description: "小田原, the last operator's completed", bbox: "35.255,139.154,35.257,139.156",
             completed: [304332], expected: [304332, 120004, 202945, 300290, 302238]),
    ]

    @Test(arguments: cases) func aPinListsEveryStationAtItsPointCompletedFirst(_ c: Case) throws {
        let catalog = try CatalogStore.bundled()
        let all = try catalog.mapEntries()
        let compDate = { (id: UInt32) -> UInt32 in c.completed.contains(id) ? 20130901 : 0 }
        for limit in [0, 4] {
            let answer = MapIndex(all, limit: limit).query(try MapBox(bbox: c.bbox))
            let pins = try MapPin.pins(answer, stations: all, catalog: catalog, compDate: compDate)
            let here = pins.filter { c.expected.contains($0.station.id) }
            #expect(!here.isEmpty, "no pin at the point with limit \(limit)")
            for pin in here {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(try pin.json().utf8)) as? [String: Any])
                let stations = try #require(object["stations"] as? [[String: Any]])
                #expect(stations.map { $0["station"] as? Int } == c.expected.map { Int($0) })
                for s in stations {
                    #expect(Set(s.keys) == ["station", "name", "operator", "lines", "comp_date", "completed"])
                    let id = try #require(s["station"] as? Int)
                    #expect(s["completed"] as? Bool == c.completed.contains(UInt32(id)))
                    #expect((s["name"] as? String)?.isEmpty == false && (s["operator"] as? String)?.isEmpty == false)
                }
                // The pin's own keys are unchanged: its station, with its own completion.
                #expect(object["station"] as? Int == Int(pin.station.id))
                #expect(object["completed"] as? Bool == c.completed.contains(pin.station.id))
                let geo = try #require(try JSONSerialization.jsonObject(with: Data(try MapPin.geoJSON([pin]).utf8)) as? [String: Any])
                let feature = try #require((geo["features"] as? [[String: Any]])?.first)
                #expect(((feature["properties"] as? [String: Any])?["stations"] as? [Any])?.count == c.expected.count)
            }
        }
    }

    /// A station alone at its point keeps exactly the keys it had.
    @Test func aLoneStationHasNoStationsKey() throws {
        let catalog = try CatalogStore.bundled()
        let all = try catalog.mapEntries()
        var count: [String: Int] = [:]
        for e in all { count["\(e.lat),\(e.lng)", default: 0] += 1 }
        let answer = MapIndex(all, limit: 100).query(try MapBox(bbox: "24,122,46,146"))
        let pins = try MapPin.pins(answer, stations: all, catalog: catalog) { _ in 0 }
        let lone = pins.filter { count["\($0.station.lat),\($0.station.lng)"] == 1 }
        let shared = pins.filter { (count["\($0.station.lat),\($0.station.lng)"] ?? 0) > 1 }
        #expect(!lone.isEmpty && !shared.isEmpty)
        for pin in lone {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(try pin.json().utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["station", "name", "lat", "lng", "zoom", "min_zoom", "comp_date", "completed", "operator", "lines"])
        }
        for pin in shared { #expect(pin.samePoint.count == count["\(pin.station.lat),\(pin.station.lng)"]) }
    }
}
