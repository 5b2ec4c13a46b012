import LedgerCore
import LedgerSync

/// One page of a pull answer (Schemas/sync-api.yaml `/v1/pull`), written once for both stores
/// and both kinds of account: the page size (`limit` capped by `SyncLimits`, and a byte bound),
/// the cursor (the next position of the user's log to examine) and `more`. A store walks its log
/// from `start` in position order, asks `admit` before each record and `append`s what the client
/// lacks; only the reads are its own. `Records` is what the log holds: plaintext records
/// (`PullPage`) or an encrypted account's sealed records (`SealedPullPage`).
package typealias PullPage = RecordPage<EncodedRecords>
/// A pull page of an encrypted account's sealed records (Schemas/encryption.md §11).
package typealias SealedPullPage = RecordPage<SealedRecords>

package struct RecordPage<Records: PageRecords> {
    /// The client's version vector (`ForkCheck.decodeHave`).
    package let have: [DeviceID: UInt64]
    private let limit: Int
    private let maximumBytes: Int
    package private(set) var records = Records()
    private var bytes = 0
    /// The next position to examine; where the walk begins until the first `admit`.
    package private(set) var cursor: UInt64 = 0
    /// True once a record was found that does not fit: the client asks again from `cursor`.
    package private(set) var more = false

    /// Checks the request's `limit` (below 1 is refused, 422); the page's bounds are those of
    /// the representation the answer goes out in.
    package init(_ request: PullRequest, have: [DeviceID: UInt64], limits: SyncLimits.Pages) throws {
        self.have = have
        limit = try ForkCheck.pageLimit(request, maximum: limits.pullRecords)
        maximumBytes = limits.pullBytes
        cursor = request.cursor ?? 0
    }

    /// Where the walk starts, for a log of `end` positions: the request's cursor only skips what
    /// was already examined for this client; one past the end (another server's, or a stale one)
    /// falls back to a full scan.
    @discardableResult
    package mutating func start(end: UInt64) -> UInt64 {
        if cursor > end { cursor = 0 }
        walkStart = cursor
        return cursor
    }
    private var walkStart: UInt64 = 0

    /// Whether the record at `position` is examined: false once the page is full (`more` is set
    /// and `cursor` stays on that record, the first not examined).
    package mutating func admit(position: UInt64) -> Bool {
        if records.count >= limit || bytes >= maximumBytes {
            more = true
            return false
        }
        cursor = position + 1
        return true
    }

    /// How many more records the page takes by count (its byte bound aside): a store reading
    /// ahead in spans reads no more than this many positions at a time for a page of lacked records.
    package var room: Int { max(0, limit - records.count) }

    /// Whether the client lacks event `seq` of `device` (device names are the store's to decide).
    package mutating func lacks(device: DeviceID, seq: UInt64) -> Bool {
        // A log holds long runs of one device's events: the last device's seq is kept at hand.
        if device != lastDevice {
            lastDevice = device
            lastHave = have[device] ?? 0
        }
        return seq > lastHave
    }
    private var lastDevice: DeviceID?
    private var lastHave: UInt64 = 0

    /// Adds a record the client lacks (a validated record of the store's log).
    package mutating func append(_ view: Records.View) {
        bytes += Records.length(of: view)
        records.append(view)
    }

    /// Whether the page ends before a stored frame of `count` records, not yet examined (setting
    /// `more`, the cursor staying on the frame): when the page holds records already, the frame
    /// would pass the page's `limit`, and an empty page could take it whole. A store that reads
    /// frames by their counts first (PostgreSQL) asks before reading one's bytes; `take` asks the
    /// same, so that both stores cut pages alike.
    package mutating func endsBefore(frameOf count: Int) -> Bool {
        guard records.count > 0, records.count + count > limit, count <= limit else { return false }
        more = true
        return true
    }

    /// Examines a stored frame of the log whose first record is at `first` (`Ledger.forEachFrame`),
    /// as `admit`, `lacks` and `append` would examine its records one by one, with
    /// `serverDevice`'s name never sent (a sealed log has no name of the server's: pass
    /// `PageRecords.noDevice`). The page ends before a frame that would pass its limit
    /// (`endsBefore`), so that the next page starts on it. A whole frame the client lacks entirely
    /// is taken as stored (`EncodedRecords.append(frame:)`: the answer sends it as it is) when it
    /// fits the page's byte bound too. A frame the client holds entirely costs the page nothing.
    package mutating func take(_ frame: SegmentReader.Frame, at first: UInt64, serverDevice: DeviceID) -> RecordIteration {
        if first >= walkStart {
            if endsBefore(frameOf: frame.count) { return .stop }
            var lacked = 0
            Records.forEachChecked(in: frame.records) { view in
                if lacks(view, serverDevice: serverDevice) { lacked += 1 }
            }
            if lacked == 0 {
                cursor = first + UInt64(frame.count)
                return .continue
            }
            if lacked == frame.count && frame.columnar {
                if records.count + frame.count <= limit && bytes + frame.records.count <= maximumBytes {
                    records.append(frame: frame)
                    bytes += frame.records.count
                    cursor = first + UInt64(frame.count)
                    return .continue
                }
                // Ending the page before it helps only if an empty page can take it whole.
                if records.count > 0 && frame.count <= limit && frame.records.count <= maximumBytes {
                    more = true
                    return .stop
                }
            }
        }
        var position = first
        var iteration = RecordIteration.continue
        Records.forEachChecked(in: frame.records) { view in
            defer { position += 1 }
            guard iteration == .continue, position >= walkStart else { return }
            guard admit(position: position) else {
                iteration = .stop
                return
            }
            if lacks(view, serverDevice: serverDevice) { append(view) }
        }
        return iteration
    }

    /// Whether the client lacks a record of the store's log whose own device is `serverDevice`.
    private mutating func lacks(_ view: Records.View, serverDevice: DeviceID) -> Bool {
        guard let seq = Records.seq(of: view) else { return Records.device(of: view) != serverDevice }
        return lacks(device: Records.device(of: view), seq: seq)
    }
}

extension RecordPage where Records == EncodedRecords {
    /// The answer, with what the store holds now.
    package func answer(serverHas: [String: UInt64], catalogVersion: UInt32?, serverDigests: [String: String]) -> PullAnswer {
        PullAnswer(records: records, page: PullResponse(records: [], more: more, cursor: cursor, serverHas: serverHas,
                                                        catalogVersion: catalogVersion, serverDigests: serverDigests))
    }
}
