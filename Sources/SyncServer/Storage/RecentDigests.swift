import LedgerCore
import LedgerSync

/// Digests of events read or sent lately, so that a pull rarely decodes a frame for them: every
/// pull names the newest event of each device twice, the client's in `have_digests` (the fork
/// check) and the store's in `server_digests` (Schemas/sync-api.yaml `/v1/pull`), and a stored
/// frame holds tens of thousands of records. Both stores keep one: the files store per user
/// (`Key` an `EventID`), the PostgreSQL store per process (`Key` naming the user and the frame
/// row too, so that an entry can never outlive the stored bytes it was read from). Bounded: when
/// `capacity` would be passed it starts again, as the heads are few and every pull names them again.
package struct RecentDigests<Key: Hashable & Sendable>: Sendable {
    private var digests: [Key: String] = [:]
    private let capacity: Int

    package init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    package subscript(key: Key) -> String? { digests[key] }

    package mutating func remember(_ entries: [Key: String]) {
        if digests.count + entries.count > capacity { digests.removeAll(keepingCapacity: true) }
        digests.merge(entries) { _, new in new }
    }
}

extension EncodedRecords {
    /// The digest of each device's newest event among these records (validated, each device's
    /// events in seq order, as a pull page sends them): what the client's next pull names in its
    /// `have_digests`, taken from the page's bytes now rather than from a frame then.
    package func newestEventDigests() -> [EventID: String] {
        var newest: [DeviceID: UInt64] = [:]
        var run: (device: DeviceID, seq: UInt64)?  // pages hold long runs of one device: hash once a run
        forEach { view in
            guard view.hasEventID else { return }
            if let current = run, current.device != view.device { newest[current.device] = current.seq }
            run = (view.device, view.seq)
        }
        guard let last = run else { return [:] }
        newest[last.device] = last.seq
        var digests: [EventID: String] = [:]
        var target: (device: DeviceID, seq: UInt64)?  // the current run's device and its newest seq
        forEach { view in
            guard digests.count < newest.count, view.hasEventID else { return }
            if target?.device != view.device { target = (view.device, newest[view.device] ?? 0) }
            if view.seq == target?.seq { digests[view.eventID] = EventDigest.hex(view) }
        }
        return digests
    }
}
