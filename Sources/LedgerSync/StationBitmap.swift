import LedgerCore

/// A set of station ids that is tested or filled once per event: a bitmap for ordinary ids (all
/// real `s_id`s are below 400,000) and a `Set` beyond. Hashing a station per event cost more
/// than the checks it fed.
struct StationBitmap: Sendable {
    private static let denseLimit = StationSlots.denseLimit
    private var dense: [Bool] = []
    private var beyond: Set<UInt32> = []
    private(set) var isEmpty = true

    init() {}

    init(_ stations: Set<UInt32>) {
        for station in stations { insert(station) }
    }

    mutating func insert(_ station: UInt32) {
        isEmpty = false
        guard station < Self.denseLimit else {
            beyond.insert(station)
            return
        }
        let i = Int(station)
        if i >= dense.count {
            dense.append(contentsOf: [Bool](repeating: false, count: max(i + 1, dense.count * 2, 1024) - dense.count))
        }
        dense[i] = true
    }

    @inline(__always)
    func contains(_ station: UInt32) -> Bool {
        if station < Self.denseLimit { return Int(station) < dense.count && dense[Int(station)] }
        return beyond.contains(station)
    }
}
