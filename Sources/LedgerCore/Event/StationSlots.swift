/// Where each station's data sits in a caller's rows: station id → slot. Ordinary ids (every real
/// `s_id` is below 400,000) are found in a dense table, one array load each, so a fold over ten
/// million events pays no hashing; ids from `denseLimit` up go in a dictionary. The completions
/// projection and the conflict detector both index their stations with it.
package struct StationSlots: Sendable {
    /// Ids below this go in the dense table (4 bytes per possible id, grown as ids come).
    package static let denseLimit: UInt32 = 1 << 21

    /// Each dense id's slot plus one; 0 where the id has none.
    @usableFromInline var dense: [Int32] = []
    @usableFromInline var overflow: [UInt32: Int32] = [:]

    package init() {}

    /// The slot of `station`, if it has one.
    @inlinable @inline(__always)
    package func slot(of station: UInt32) -> Int32? {
        if station < Self.denseLimit {
            let i = Int(station)
            guard i < dense.count else { return nil }
            let stored = dense[i]
            return stored == 0 ? nil : stored - 1
        }
        return overflow[station]
    }

    /// Gives `station` the slot `slot`.
    @inlinable
    package mutating func set(_ slot: Int32, for station: UInt32) {
        guard station < Self.denseLimit else {
            overflow[station] = slot
            return
        }
        let i = Int(station)
        if i >= dense.count {
            dense.append(contentsOf: [Int32](repeating: 0, count: max(i + 1, dense.count * 2, 1024) - dense.count))
        }
        dense[i] = slot + 1
    }
}
