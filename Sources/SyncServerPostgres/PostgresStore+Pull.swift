import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

extension PostgresStore {
    /// Frames read per query while filling a page: enough for the page's room (a frame holds a
    /// few thousand records), at most `pullFrames`.
    package static let pullFrames = 64

    /// The records `have` lacks in position order from the cursor (the next position to examine:
    /// positions are assigned in push transactions, so a cursor is valid on every instance). Each
    /// stored frame is decoded with every checksum checked (a frame that does not decode answers
    /// 503) and examined by `PullPage.take`, which sends a frame the client lacks entirely as it
    /// is stored. The page (size, cursor, `more`) is `PullPage`'s; only the reads are this store's.
    package func pullAnswer(user: String, request: PullRequest, as representation: WireRepresentation) async throws -> PullAnswer {
        let page = try PullPage(request, have: try ForkCheck.decodeHave(request), limits: limits.pages(representation))
        return try await PostgresDeadline.serving(client, logger) { connection in
            let id = try await Self.userID(user, connection, self.logger, serving: true)
            return try await self.pull(id, user: user, page: page, request: request, connection)
        }
    }

    private func pull(_ id: Int64, user: String, page: PullPage, request: PullRequest,
                      _ connection: PostgresConnection) async throws -> PullAnswer {
        var page = page
        do {
            try await ForkCheck.check(page.have, request) { device, seq in
                try await Self.storedDigest(EventID(device: device, seq: seq), user: id, userName: user, connection, logger)
            }
            var end: Int64 = 0
            for try await next in try await connection.query(
                "SELECT next_position FROM users WHERE id = \(id)", logger: logger).decode(Int64.self) { end = next }
            // Positions are below 2^63 (bigint), and so is every cursor `PullPage` keeps.
            page.start(end: UInt64(end))
            let reader = RecordFrames.Reader()
            // The frame holding the cursor, then those after it.
            var from = Int64(page.cursor), after = false
            scan: while from < end {
                let rows = min(Self.pullFrames, 2 + page.room / 2_000)
                let query: PostgresQuery = after
                    ? "SELECT first_position, count, frame FROM event_frames WHERE user_id = \(id) AND first_position > \(from) ORDER BY first_position LIMIT \(rows)"
                    : """
                      SELECT first_position, count, frame FROM event_frames WHERE user_id = \(id) AND first_position >= COALESCE(
                          (SELECT max(first_position) FROM event_frames WHERE user_id = \(id) AND first_position <= \(from)), 0)
                      ORDER BY first_position LIMIT \(rows)
                      """
                var read = 0
                for try await (first, count, stored) in try await connection.query(query, logger: logger).decode((Int64, Int32, ByteBuffer).self) {
                    read += 1
                    from = first
                    let iteration = try stored.withUnsafeReadableBytes { bytes -> RecordIteration in
                        let frame = try Self.decode(bytes, reader, user: user, first: first, count: count)
                        // No device is the store's own: every device name is sent.
                        return page.take(frame, at: UInt64(first), serverDevice: DeviceID(rawValue: 0))
                    }
                    if iteration == .stop { break scan }
                }
                if read == 0 { break }
                after = true
            }
            let held = try await Self.heldVector(id, connection, logger)
            let digests = try await Self.digests(at: held, user: user, id: id, connection)
            try await connection.query("UPDATE users SET last_pull = \(clock.nowMilliseconds()) WHERE id = \(id)", logger: logger)
            return page.answer(serverHas: WireVersionVector.encode(held),
                               catalogVersion: try await Self.catalogVersion(id, connection, logger), serverDigests: digests)
        } catch let error as SyncServerError where error.kind == .unavailable {
            // Met here first: every later request of this user is answered 503 at once.
            try? await recordDamage(id, error.message)
            throw error
        }
    }

    /// The digest of the event at each device's highest seq (`server_digests`); a missing one is damage.
    private static func digests(at held: [DeviceID: UInt64], user: String, id: Int64, _ connection: PostgresConnection) async throws -> [String: String] {
        guard !held.isEmpty else { return [:] }
        let ids = held.map { EventID(device: $0.key, seq: $0.value) }
        let stored = try await storedRecords(ids, user: id, userName: user, connection, Logger(label: "oritsubushi.postgres"))
        var digests: [String: String] = [:]
        for eventID in ids.sorted() {
            guard let bytes = stored[eventID] else {
                throw damaged(user: user, table: "event_runs", id: eventID, "the device's highest event is missing")
            }
            digests[eventID.device.description] = bytes.withUnsafeBytes { EventDigest.hex($0) }
        }
        return digests
    }
}
