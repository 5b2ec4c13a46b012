/// The global quadtree grid of the map query (Schemas/map.md §2–§4): every number a phone
/// client needs to reproduce the shown set exactly. All arithmetic is on integer micro-degrees.
package enum MapGrid {
    /// The finest level; level `z` cells are `2^(finestLevel − z)` micro-degrees square.
    package static let finestLevel = 29
    /// The limit used to derive the zoom level when `--limit 0` (unlimited) is asked.
    package static let unlimitedZoomLimit = 100

    /// Grid x of a longitude: `lng + 180,000,000`, clamped to `0 ..< 2^29`.
    package static func x(lng: Int64) -> UInt64 { clamp(lng + 180_000_000) }
    /// Grid y of a latitude: `lat + 90,000,000`, clamped to `0 ..< 2^29`.
    package static func y(lat: Int64) -> UInt64 { clamp(lat + 90_000_000) }

    private static func clamp(_ value: Int64) -> UInt64 {
        UInt64(min(max(value, 0), (Int64(1) << finestLevel) - 1))
    }

    /// The Z-order (Morton) code: bit `i` of x goes to bit `2i`, bit `i` of y to bit `2i + 1`.
    /// A level-`z` cell is every code sharing the top `2z` of the 58 bits, a contiguous range.
    package static func morton(x: UInt64, y: UInt64) -> UInt64 { spread(x) | (spread(y) << 1) }

    private static func spread(_ value: UInt64) -> UInt64 {
        var v = value & 0xFFFF_FFFF
        v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF
        v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF
        v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F
        v = (v | (v << 2)) & 0x3333_3333_3333_3333
        v = (v | (v << 1)) & 0x5555_5555_5555_5555
        return v
    }

    /// The spatial-thinning key: the 58-bit Morton code with its bits reversed (bit `i` ↔ bit
    /// `57 − i`). Ascending, it visits the plane in the bit-reversed Z order, a low-discrepancy
    /// order: stations early in it are spread out rather than bunched.
    package static func thinningKey(morton: UInt64) -> UInt64 {
        var v = morton
        v = ((v >> 1) & 0x5555_5555_5555_5555) | ((v & 0x5555_5555_5555_5555) << 1)
        v = ((v >> 2) & 0x3333_3333_3333_3333) | ((v & 0x3333_3333_3333_3333) << 2)
        v = ((v >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((v & 0x0F0F_0F0F_0F0F_0F0F) << 4)
        v = ((v >> 8) & 0x00FF_00FF_00FF_00FF) | ((v & 0x00FF_00FF_00FF_00FF) << 8)
        v = ((v >> 16) & 0x0000_FFFF_0000_FFFF) | ((v & 0x0000_FFFF_0000_FFFF) << 16)
        v = (v >> 32) | (v << 32)
        return v >> UInt64(64 - 2 * finestLevel)   // the 64-bit reversal, moved down to 58 bits
    }

    /// `m`, the most cells a viewport may touch along each axis: `⌊√limit⌋` (`limit ≥ 4`).
    package static func cellsPerAxis(limit: Int) -> Int {
        let limit = limit == 0 ? unlimitedZoomLimit : limit
        var m = 1
        while (m + 1) * (m + 1) <= limit { m += 1 }
        return m
    }

    /// The per-cell allowance `a = ⌊limit / m²⌋`, or `nil` (no cap) for `limit` 0.
    package static func allowance(limit: Int) -> Int? {
        guard limit > 0 else { return nil }
        let m = cellsPerAxis(limit: limit)
        return limit / (m * m)
    }

    /// The zoom level for a viewport whose larger side is `span` micro-degrees: the largest
    /// `z ≤ 29` with `(m − 1) · 2^(29 − z) ≥ span`, so the box touches at most `m` cells per axis.
    package static func zoom(span: Int64, limit: Int) -> Int {
        let m = Int64(cellsPerAxis(limit: limit))
        var z = finestLevel
        while z > 0, (m - 1) << Int64(finestLevel - z) < span { z -= 1 }
        return z
    }
}
