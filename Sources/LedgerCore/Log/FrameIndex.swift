/// Where the data frames of a log start, as this process met them while reading or writing it:
/// a read from a log position starts at the nearest frame at or before it instead of at its
/// segment's first frame. Without it every page of a pull (Schemas/sync-api.yaml) would decode
/// its segment from the start, and a pull of a long log would cost the square of its length.
///
/// Segments are append-only, so an entry stays true for the life of the open ledger (a failed
/// append's frames are never noted).
struct FrameIndex {
    struct Start: Equatable {
        /// The log position of the frame's first record.
        var position: UInt64
        /// The frame's byte offset in its segment file.
        var offset: Int
    }

    /// Per segment number, ascending by position.
    private var starts: [UInt32: [Start]] = [:]

    /// Notes frames of segment `segment` met in ascending order (an append's, or a read's); only
    /// those past the last one known are kept, so noting stays O(1) a frame (a read that starts
    /// before the last known frame meets frames that are mostly known already).
    mutating func note(segment: UInt32, _ met: [Start]) {
        let last = starts[segment]?.last?.position
        let new = met.drop(while: { last != nil && $0.position <= last! })
        guard !new.isEmpty else { return }
        starts[segment, default: []].append(contentsOf: new)
    }

    /// The known frame of segment `segment` that starts nearest at or before `position`.
    func nearest(segment: UInt32, atOrBefore position: UInt64) -> Start? {
        guard let list = starts[segment] else { return nil }
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].position <= position { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : list[low - 1]
    }
}
