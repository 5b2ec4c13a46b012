import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

extension PostgresStore {
    /// Rows read per query while filling a page (rows the client holds are skipped in Swift).
    static let pullBatch = 2_000

    /// The records `have` lacks in position order from the cursor (the next position to examine:
    /// positions are assigned in push transactions, so a cursor is valid on every instance). Every
    /// returned row's bytes are checked against its digest: a damaged row answers 503. The page
    /// (size, cursor, `more`) is `PullPage`'s; only the reads are this store's.
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
                try await Self.storedDigest(EventID(device: device, seq: seq), user: id, connection, logger)
            }
            var end: Int64 = 0
            for try await next in try await connection.query(
                "SELECT next_position FROM users WHERE id = \(id)", logger: logger).decode(Int64.self) { end = next }
            // Positions are below 2^63 (bigint), and so is every cursor `PullPage` keeps.
            page.start(end: UInt64(end))
            scan: while true {
                var count = 0
                let from = Int64(page.cursor)
                let rows = try await connection.query("""
                    SELECT position, device, seq, record, digest FROM (
                        SELECT position, device, seq, record, digest FROM events WHERE user_id = \(id) AND position >= \(from)
                        UNION ALL
                        SELECT position, device, 0, record, digest FROM device_names WHERE user_id = \(id) AND position >= \(from)
                    ) AS r ORDER BY position LIMIT \(Self.pullBatch)
                    """, logger: logger)
                for try await (position, device, seq, row, digest) in rows.decode((Int64, Int64, Int64, ByteBuffer, String).self) {
                    count += 1
                    // Once the page is full the rest of the batch is drained, not examined.
                    guard page.admit(position: UInt64(position)) else { continue }
                    let deviceID = PostgresRecord.device(device)
                    if seq > 0, !page.lacks(device: deviceID, seq: UInt64(seq)) { continue }
                    let eventID = EventID(device: deviceID, seq: UInt64(seq))
                    try Self.checkRow(user: user, table: seq > 0 ? "events" : "device_names", id: eventID, bytes: row, digest: digest)
                    guard (try? PostgresRecord.withRecord(in: row, { page.append($0) })) != nil else {
                        throw Self.damaged(user: user, table: seq > 0 ? "events" : "device_names", id: eventID, "its record cannot be read")
                    }
                }
                if page.more || count < Self.pullBatch { break scan }
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

    /// The digest of the event at each device's highest seq (`server_digests`); a missing row is damage.
    private static func digests(at held: [DeviceID: UInt64], user: String, id: Int64, _ connection: PostgresConnection) async throws -> [String: String] {
        guard !held.isEmpty else { return [:] }
        let devices = held.keys.sorted()
        var digests: [String: String] = [:]
        let rows = try await connection.query("""
            SELECT e.device, e.digest FROM events e
            JOIN unnest(\(devices.map(PostgresRecord.key))::bigint[], \(devices.map { Int64(clamping: held[$0]!) })::bigint[]) AS v(d, s)
              ON e.device = v.d AND e.seq = v.s AND e.user_id = \(id)
            """, logger: Logger(label: "oritsubushi.postgres"))
        for try await (device, digest) in rows.decode((Int64, String).self) {
            digests[PostgresRecord.device(device).description] = digest
        }
        if let missing = devices.first(where: { digests[$0.description] == nil }) {
            throw damaged(user: user, table: "events", id: EventID(device: missing, seq: held[missing]!), "the device's highest event is missing")
        }
        return digests
    }
}
