/// The pin query's spatial index (Schemas/map.md): the stations a filter leaves, sorted along
/// the Z-order curve so that every grid cell is one contiguous range, each with its `min_zoom`
/// (the first level at which it is among its cell's `allowance` best by priority) computed once
/// when the index is built. A query then reads only the ranges of the ≤ m² cells its box touches.
package struct MapIndex: Sendable {
    /// A station as the rule sees it: position (micro-degrees), weight and id.
    package struct Entry: Sendable, Equatable {
        package var id: UInt32
        package var lat, lng, weight: Int64

        package init(id: UInt32, lat: Int64, lng: Int64, weight: Int64) {
            (self.id, self.lat, self.lng, self.weight) = (id, lat, lng, weight)
        }
    }

    /// A shown station: its entry and the first level it is shown at.
    package struct Pin: Sendable, Equatable {
        package var entry: Entry
        package var minZoom: Int
    }

    package struct Answer: Sendable, Equatable {
        package var zoom: Int
        /// In priority order (weight, thinning key, s_id).
        package var pins: [Pin]
    }

    package let limit: Int
    private let entries: [Entry]       // Morton order
    private let codes: [UInt64]        // Morton code of each entry
    private let ranks: [Int]           // priority rank of each entry (0 = first)
    private let minZooms: [Int]        // Int.max: shown at no level

    /// Indexes `stations` (already filtered) for `limit` (0 = unlimited, else ≥ 4).
    package init(_ stations: [Entry], limit: Int) {
        self.limit = limit
        let keyed = stations.map { entry -> (entry: Entry, code: UInt64, thin: UInt64) in
            let code = MapGrid.morton(x: MapGrid.x(lng: entry.lng), y: MapGrid.y(lat: entry.lat))
            return (entry, code, MapGrid.thinningKey(morton: code))
        }
        var priority = Array(keyed.indices)
        priority.sort { MapIndex.precedes(keyed[$0], keyed[$1]) }
        var rankOf = [Int](repeating: 0, count: keyed.count)
        for (rank, index) in priority.enumerated() { rankOf[index] = rank }
        let order = keyed.indices.sorted { (keyed[$0].code, rankOf[$0]) < (keyed[$1].code, rankOf[$1]) }
        entries = order.map { keyed[$0].entry }
        codes = order.map { keyed[$0].code }
        ranks = order.map { rankOf[$0] }
        minZooms = MapIndex.minZooms(codes: codes, ranks: ranks, allowance: MapGrid.allowance(limit: limit))
    }

    /// The priority: `weight`, then the thinning key, then `s_id`, all ascending.
    private static func precedes(_ a: (entry: Entry, code: UInt64, thin: UInt64), _ b: (entry: Entry, code: UInt64, thin: UInt64)) -> Bool {
        (a.entry.weight, a.thin, a.entry.id) < (b.entry.weight, b.thin, b.entry.id)
    }

    /// Top-down over the quadtree: a cell's `allowance` lowest ranks are shown from its level on
    /// (the cells nesting, at every finer one too); a cell holding no more than `allowance`
    /// stations shows them all, so its subtree needs no visit.
    private static func minZooms(codes: [UInt64], ranks: [Int], allowance: Int?) -> [Int] {
        guard let allowance else { return [Int](repeating: 0, count: codes.count) }
        var result = [Int](repeating: Int.max, count: codes.count)
        var best: [Int] = []
        var pending = [(range: 0..<codes.count, level: 0)]
        while let (range, level) = pending.popLast() {
            guard !range.isEmpty else { continue }
            if range.count <= allowance {
                for index in range where result[index] == Int.max { result[index] = level }
                continue
            }
            best.removeAll(keepingCapacity: true)
            for index in range { insert(index, into: &best, ranks: ranks, keeping: allowance) }
            for index in best where result[index] == Int.max { result[index] = level }
            guard level < MapGrid.finestLevel else { continue }
            // The four children: the next two bits of the code below this level's prefix.
            let shift = UInt64(2 * (MapGrid.finestLevel - level - 1))
            var start = range.lowerBound
            for child in 0..<UInt64(4) {
                var end = start
                while end < range.upperBound, (codes[end] >> shift) & 3 == child { end += 1 }
                pending.append((start..<end, level + 1))
                start = end
            }
        }
        return result
    }

    private static func insert(_ index: Int, into best: inout [Int], ranks: [Int], keeping allowance: Int) {
        var position = best.count
        while position > 0, ranks[best[position - 1]] > ranks[index] { position -= 1 }
        guard position < allowance else { return }
        best.insert(index, at: position)
        if best.count > allowance { best.removeLast() }
    }

    /// The shown stations inside `box` at the zoom level its span decides.
    package func query(_ box: MapBox) -> Answer {
        let zoom = MapGrid.zoom(span: box.span, limit: limit)
        let shift = UInt64(MapGrid.finestLevel - zoom)
        let x0 = MapGrid.x(lng: box.west) >> shift, x1 = MapGrid.x(lng: box.east - 1) >> shift
        let y0 = MapGrid.y(lat: box.south) >> shift, y1 = MapGrid.y(lat: box.north - 1) >> shift
        var found: [Int] = []
        for cy in y0...y1 {
            for cx in x0...x1 {
                let low = MapGrid.morton(x: cx, y: cy) << (2 * shift)
                let high = low + (UInt64(1) << (2 * shift))
                var index = lowerBound(low)
                while index < codes.count, codes[index] < high {
                    let entry = entries[index]
                    if minZooms[index] <= zoom, box.contains(lat: entry.lat, lng: entry.lng) { found.append(index) }
                    index += 1
                }
            }
        }
        found.sort { ranks[$0] < ranks[$1] }
        return Answer(zoom: zoom, pins: found.map { Pin(entry: entries[$0], minZoom: minZooms[$0]) })
    }

    private func lowerBound(_ code: UInt64) -> Int {
        var low = 0, high = codes.count
        while low < high {
            let mid = (low + high) / 2
            if codes[mid] < code { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
