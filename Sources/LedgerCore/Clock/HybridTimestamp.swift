/// A hybrid logical clock value: 48 bits of Unix milliseconds and a 16-bit logical counter.
///
/// Ordering the raw 64-bit value orders by wall time first and by counter second, which is the
/// last-writer-wins order of the projections (ties broken by device and seq).
package struct HybridTimestamp: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    package var rawValue: UInt64

    package init(rawValue: UInt64) { self.rawValue = rawValue }

    package init(milliseconds: Int64, counter: UInt16 = 0) {
        rawValue = UInt64(max(0, milliseconds)) << 16 | UInt64(counter)
    }

    package static let zero = HybridTimestamp(rawValue: 0)

    /// The wall-clock part: Unix milliseconds.
    package var milliseconds: Int64 { Int64(rawValue >> 16) }
    package var counter: UInt16 { UInt16(truncatingIfNeeded: rawValue) }
    /// Unix seconds, as the original apps' `update_date`.
    package var unixSeconds: Int64 { milliseconds / 1000 }

    /// The next value a local event gets: wall clock if it moved on, else one past the last value.
    package static func next(after last: HybridTimestamp, wallClock ms: Int64) -> HybridTimestamp {
        let wall = HybridTimestamp(milliseconds: ms)
        return wall > last ? wall : HybridTimestamp(rawValue: last.rawValue &+ 1)
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// ISO 8601 UTC with milliseconds, e.g. `2026-11-22T03:04:05.123Z`.
    package var description: String { ISO8601.format(milliseconds: milliseconds) }
}
