import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

extension PostgresStore {
    /// Frames whose counts are read per query while filling a page (a frame holds up to tens of
    /// thousands of records); their bytes are read only as the page's room takes them.
    package static let pullFrames = 64

    /// The records `have` lacks in position order from the cursor (the next position to examine:
    /// positions are assigned in push transactions, so a cursor is valid on every instance). Each
    /// stored frame is decoded with every checksum checked (a frame that does not decode answers
    /// 503) and examined by `PullPage.take`, which sends a frame the client lacks entirely as it
    /// is stored. The page (size, cursor, `more`) is `PullPage`'s; only the reads are this store's.
    package func pullAnswer(user: String, request: PullRequest, as representation: WireRepresentation) async throws -> PullAnswer {
        let page = try PullPage(request, have: try ForkCheck.decodeHave(request), limits: limits.pages(representation))
        return try await remembersDamage(of: user) {
            try await PostgresDeadline.serving(client, logger) { connection in
                let id = try await Self.userID(user, connection, self.logger, serving: true)
                return try await self.pull(id, user: user, page: page, request: request, connection)
            }
        }
    }

    private func pull(_ id: Int64, user: String, page: PullPage, request: PullRequest,
                      _ connection: PostgresConnection) async throws -> PullAnswer {
        var page = page
        do {
            let theirs = try await storedDigests(page.have.filter { $0.value > 0 }.map { EventID(device: $0.key, seq: $0.value) },
                                                 user: id, userName: user, connection)
            try ForkCheck.check(page.have, request, stored: Dictionary(uniqueKeysWithValues: theirs.map { ($0.key.device, $0.value) }))
            try await fill(&page, id: id, user: user, records: .plain, connection)
            // The client's next pull names the newest event of each device this page sends.
            try await rememberSent(page.records.newestEventDigests(), user: id, connection)
            let held = try await Self.heldVector(id, connection, logger)
            let digests = try await serverDigests(at: held, user: user, id: id, connection)
            try await connection.query("UPDATE users SET last_pull = \(clock.nowMilliseconds()) WHERE id = \(id)", logger: logger)
            return page.answer(serverHas: WireVersionVector.encode(held),
                               catalogVersion: try await Self.catalogVersion(id, connection, logger), serverDigests: digests)
        } catch let error as SyncServerError where error.kind == .unavailable {
            // Met here first: every later request of this user is answered 503 at once.
            try? await recordDamage(id, error.message)
            throw error
        }
    }

    /// Fills `page` from the frames of user `id` from the page's cursor (`RecordPage.take`): the
    /// one walk of a user's stored frames for both forms of records (`records`).
    func fill<Records>(_ page: inout RecordPage<Records>, id: Int64, user: String, records form: LedgerRecords,
                       _ connection: PostgresConnection) async throws {
            var end: Int64 = 0
            for try await next in try await connection.query(
                "SELECT next_position FROM users WHERE id = \(id)", logger: logger).decode(Int64.self) { end = next }
            // Positions are below 2^63 (bigint), and so is every cursor `PullPage` keeps.
            page.start(end: UInt64(end))
            let reader = RecordFrames.Reader()
            // The frames from the one holding the cursor: their counts first (no bytes), then the
            // bytes of as many as the page's room can take, until the page is full or the log ends.
            var last: Int64?  // the last frame examined
            scan: while true {
                let index: PostgresQuery = last.map {
                    "SELECT first_position, count FROM event_frames WHERE user_id = \(id) AND first_position > \($0) ORDER BY first_position LIMIT \(Self.pullFrames)"
                } ?? """
                    SELECT first_position, count FROM event_frames WHERE user_id = \(id) AND first_position >= COALESCE(
                        (SELECT max(first_position) FROM event_frames WHERE user_id = \(id) AND first_position <= \(Int64(page.cursor))), 0)
                    ORDER BY first_position LIMIT \(Self.pullFrames)
                    """
                var frames: [(first: Int64, count: Int32)] = []
                for try await frame in try await connection.query(index, logger: logger).decode((Int64, Int32).self) { frames.append(frame) }
                guard !frames.isEmpty else { break }
                // At least one frame; then those that fit the room by count (a frame the client
                // holds costs the page nothing, so the next round reads on).
                var wanted: [Int64] = [], total = 0
                for frame in frames {
                    if wanted.isEmpty {
                        if page.endsBefore(frameOf: Int(frame.count)) { break scan }
                    } else if total + Int(frame.count) > page.room {
                        break
                    }
                    wanted.append(frame.first)
                    total += Int(frame.count)
                }
                for try await (first, count, stored) in try await connection.query("""
                    SELECT first_position, count, frame FROM event_frames WHERE user_id = \(id) AND first_position = ANY(\(wanted))
                    ORDER BY first_position
                    """, logger: logger).decode((Int64, Int32, ByteBuffer).self) {
                    last = first
                    let iteration = try stored.withUnsafeReadableBytes { bytes -> RecordIteration in
                        let frame = try Self.decode(bytes, reader, user: user, first: first, count: count, records: form)
                        // No device is the store's own: every device name is sent.
                        return page.take(frame, at: UInt64(first), serverDevice: DeviceID(rawValue: 0))
                    }
                    if iteration == .stop { break scan }
                }
                // A frame the counts named that the read did not find was set aside by a repair
                // meanwhile (which stores its events again at the end of the log): read on after it.
                last = max(last ?? 0, wanted.last ?? 0)
            }
    }

    /// The digest of the event at each device's highest seq (`server_digests`); a missing one is damage.
    private func serverDigests(at held: [DeviceID: UInt64], user: String, id: Int64, _ connection: PostgresConnection) async throws -> [String: String] {
        let ids = held.map { EventID(device: $0.key, seq: $0.value) }
        let stored = try await storedDigests(ids, user: id, userName: user, connection)
        var digests: [String: String] = [:]
        for eventID in ids.sorted() {
            guard let digest = stored[eventID] else {
                throw Self.damaged(user: user, table: "event_runs", id: eventID, "the device's highest event is missing")
            }
            digests[eventID.device.description] = digest
        }
        return digests
    }
}
