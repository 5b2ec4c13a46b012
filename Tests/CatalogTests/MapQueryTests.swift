import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// The pin query never flickers (Schemas/map.md): seeded random catalogues and
/// viewports; panning and zooming in keep every pin that stays inside, no answer exceeds the
/// limit, and the index answers exactly what a brute-force evaluation of the documented rule does.
@Suite struct MapQueryTests {
    static let seeds: [UInt64] = [1, 2, 3, 13, 176]
    static let limits = [4, 10, 50, 100, 500]

    /// Stations clustered around a few centres in Japan, some sharing coordinates, weights 0…3.
    static func catalogue(_ random: inout SeededGenerator, count: Int = 400) -> [MapIndex.Entry] {
        let centres = (0..<6).map { _ in (Int64.random(in: 31_000_000...43_000_000, using: &random),
                                          Int64.random(in: 130_000_000...145_000_000, using: &random)) }
        var entries: [MapIndex.Entry] = []
        for id in 1...count {
            let (lat, lng): (Int64, Int64)
            if id > 1, Int.random(in: 0..<20, using: &random) == 0 {
                (lat, lng) = (entries[id - 2].lat, entries[id - 2].lng)
            } else {
                let c = centres.randomElement(using: &random)!
                let radius = Int64(1) << Int64.random(in: 8...22, using: &random)
                (lat, lng) = (c.0 + Int64.random(in: -radius...radius, using: &random), c.1 + Int64.random(in: -radius...radius, using: &random))
            }
            entries.append(MapIndex.Entry(id: UInt32(id * 7), lat: lat, lng: lng, weight: Int64.random(in: 0...3, using: &random)))
        }
        return entries
    }

    static func box(_ random: inout SeededGenerator, span: Int64) -> MapBox {
        let south = Int64.random(in: 30_000_000...44_000_000, using: &random) - span / 2
        let west = Int64.random(in: 129_000_000...146_000_000, using: &random) - span / 2
        return MapBox(south: south, west: west, north: south + span, east: west + span)
    }

    static func randomSpan(_ random: inout SeededGenerator) -> Int64 { Int64(1) << Int64.random(in: 12...24, using: &random) + Int64.random(in: 0...4095, using: &random) }

    /// The rule of Schemas/map.md evaluated directly: a station is shown at level z when fewer
    /// than `allowance` stations of its level-z cell precede it by (weight, thinning key, s_id).
    static func bruteForce(_ entries: [MapIndex.Entry], limit: Int, box: MapBox) -> (zoom: Int, ids: Set<UInt32>) {
        let zoom = MapGrid.zoom(span: box.span, limit: limit)
        func code(_ e: MapIndex.Entry) -> UInt64 { MapGrid.morton(x: MapGrid.x(lng: e.lng), y: MapGrid.y(lat: e.lat)) }
        func key(_ e: MapIndex.Entry) -> (Int64, UInt64, UInt32) { (e.weight, MapGrid.thinningKey(morton: code(e)), e.id) }
        let shift = UInt64(2 * (MapGrid.finestLevel - zoom))
        var ids = Set<UInt32>()
        for e in entries where box.contains(lat: e.lat, lng: e.lng) {
            if let allowance = MapGrid.allowance(limit: limit) {
                let ahead = entries.filter { code($0) >> shift == code(e) >> shift && key($0) < key(e) }.count
                guard ahead < allowance else { continue }
            }
            ids.insert(e.id)
        }
        return (zoom, ids)
    }

    static func ids(_ answer: MapIndex.Answer) -> Set<UInt32> { Set(answer.pins.map(\.entry.id)) }

    @Test(arguments: seeds, limits) func answerEqualsBruteForceAndKeepsTheLimit(_ seed: UInt64, _ limit: Int) {
        var random = SeededGenerator(seed: seed)
        let entries = Self.catalogue(&random)
        let index = MapIndex(entries, limit: limit)
        for _ in 0..<40 {
            let box = Self.box(&random, span: Self.randomSpan(&random))
            let answer = index.query(box)
            let expected = Self.bruteForce(entries, limit: limit, box: box)
            #expect(answer.zoom == expected.zoom)
            #expect(Self.ids(answer) == expected.ids)
            #expect(answer.pins.count <= limit)
            #expect(answer.pins.allSatisfy { $0.minZoom <= answer.zoom })
        }
    }

    @Test(arguments: seeds) func limitZeroAnswersEveryStationInTheBox(_ seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let entries = Self.catalogue(&random)
        let index = MapIndex(entries, limit: 0)
        for _ in 0..<40 {
            let box = Self.box(&random, span: Self.randomSpan(&random))
            let inside = Set(entries.filter { box.contains(lat: $0.lat, lng: $0.lng) }.map(\.id))
            #expect(Self.ids(index.query(box)) == inside)
        }
    }

    @Test(arguments: seeds, limits) func panningNeverRemovesAPinThatStaysInside(_ seed: UInt64, _ limit: Int) {
        var random = SeededGenerator(seed: seed)
        let index = MapIndex(Self.catalogue(&random), limit: limit)
        for _ in 0..<40 {
            let span = Self.randomSpan(&random)
            let before = Self.box(&random, span: span)
            let dLat = Int64.random(in: -span...span, using: &random), dLng = Int64.random(in: -span...span, using: &random)
            let after = MapBox(south: before.south + dLat, west: before.west + dLng, north: before.north + dLat, east: before.east + dLng)
            let shown = index.query(after)
            for pin in index.query(before).pins where after.contains(lat: pin.entry.lat, lng: pin.entry.lng) {
                #expect(shown.pins.contains { $0.entry.id == pin.entry.id }, "pin \(pin.entry.id) vanished when panning")
            }
        }
    }

    @Test(arguments: seeds, limits) func zoomingInNeverRemovesAPinThatStaysInside(_ seed: UInt64, _ limit: Int) {
        var random = SeededGenerator(seed: seed)
        let index = MapIndex(Self.catalogue(&random), limit: limit)
        for _ in 0..<40 {
            let before = Self.box(&random, span: Self.randomSpan(&random))
            let span = Int64.random(in: 1...before.span, using: &random)
            let south = Int64.random(in: before.south...(before.north - 1), using: &random) - span / 2
            let west = Int64.random(in: before.west...(before.east - 1), using: &random) - span / 2
            let after = MapBox(south: south, west: west, north: south + span, east: west + span)
            let shown = index.query(after)
            #expect(shown.zoom >= index.query(before).zoom)
            for pin in index.query(before).pins where after.contains(lat: pin.entry.lat, lng: pin.entry.lng) {
                #expect(shown.pins.contains { $0.entry.id == pin.entry.id }, "pin \(pin.entry.id) vanished when zooming in")
            }
        }
    }

    /// A dense catalogue and wide views: the limit is reached, never exceeded.
    @Test(arguments: limits) func denseViewsStayWithinTheLimit(_ limit: Int) {
        var random = SeededGenerator(seed: 99)
        let entries = Self.catalogue(&random, count: 3_000)
        let index = MapIndex(entries, limit: limit)
        var largest = 0
        for _ in 0..<60 {
            let count = index.query(Self.box(&random, span: Int64.random(in: 1_000_000...20_000_000, using: &random))).pins.count
            #expect(count <= limit)
            largest = max(largest, count)
        }
        #expect(largest >= limit / 4)
    }

    @Test func gridArithmetic() {
        #expect(MapGrid.cellsPerAxis(limit: 100) == 10)
        #expect(MapGrid.allowance(limit: 100) == 1)
        #expect(MapGrid.allowance(limit: 50) == 1)
        #expect(MapGrid.cellsPerAxis(limit: 4) == 2)
        #expect(MapGrid.allowance(limit: 8) == 2)
        #expect(MapGrid.allowance(limit: 0) == nil)
        #expect(MapGrid.morton(x: 0b11, y: 0b01) == 0b0111)
        #expect(MapGrid.thinningKey(morton: 1) == UInt64(1) << 57)
        // (m − 1) · 2^(29 − z) ≥ span, the largest such z.
        #expect(MapGrid.zoom(span: 1, limit: 100) == 29)
        #expect(MapGrid.zoom(span: 9 << 10, limit: 100) == 19)
        #expect(MapGrid.zoom(span: (9 << 10) + 1, limit: 100) == 18)
        #expect(MapGrid.zoom(span: 360_000_000, limit: 4) == 0)
    }

    static let badBoxes = ["", "1,2,3", "35,135,34,136", "35,136,36,135", "a,b,c,d", "35,135,95,136", "35,135,35,136", "nan,1,2,3"]

    @Test(arguments: badBoxes) func malformedBoxesAreUsageErrors(_ text: String) {
        #expect(throws: LedgerError.self) { try MapBox(bbox: text) }
        do { _ = try MapBox(bbox: text) } catch let error as LedgerError { #expect(error.category == .usage) } catch {}
    }

    @Test func centreAndSpanKeepTheirSpanWhenPanned() throws {
        let a = try MapBox(center: "35.0,135.0", span: "0.5,0.25")
        let b = try MapBox(center: "35.123457,135.000003", span: "0.5,0.25")
        #expect(a.span == 500_000 && b.span == 500_000)
        #expect(a.north - a.south == 500_000 && a.east - a.west == 250_000)
        #expect(throws: LedgerError.self) { try MapBox(center: "35,135", span: "0,1") }
        #expect(throws: LedgerError.self) { try MapBox(center: "95,135", span: "1,1") }
        #expect(try MapBox(center: "89.9,179.9", span: "1,1").north <= 90_000_001)
    }
}
