import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

extension PostgresStore {
    /// Positions read per query while filling a page: at most the page's room (a JSON page of
    /// 2,000 records reads 2,000 positions, not ten thousand it would mostly leave), at least
    /// `pullSpanMinimum`, at most `pullSpan`. Each query answers one row: the span's records
    /// concatenated in position order, their positions and their digests (`string_agg`), so that
    /// the serve process handles three values per span instead of five per row.
    package static let pullSpan: Int64 = 10_000
    static let pullSpanMinimum: Int64 = 500

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
            var from = Int64(page.cursor)
            scan: while from < end {
                let to = from + min(Self.pullSpan, max(Self.pullSpanMinimum, Int64(page.room)))
                let query: PostgresQuery = """
                    SELECT count(*), string_agg(int8send(position), ''::bytea ORDER BY position),
                           string_agg(record, ''::bytea ORDER BY position), string_agg(decode(digest, 'hex'), ''::bytea ORDER BY position)
                    FROM (SELECT position, record, digest FROM events WHERE user_id = \(id) AND position >= \(from) AND position < \(to)
                          UNION ALL
                          SELECT position, record, digest FROM device_names WHERE user_id = \(id) AND position >= \(from) AND position < \(to)
                    ) AS r
                    """
                var span: (count: Int64, positions: ByteBuffer?, records: ByteBuffer?, digests: ByteBuffer?) = (0, nil, nil, nil)
                do {
                    for try await row in try await connection.query(query, logger: logger).decode((Int64, ByteBuffer?, ByteBuffer?, ByteBuffer?).self) {
                        span = row
                    }
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "22023" {
                    // A digest that is not hex: the rows are read one by one to name it.
                    throw try await damage(user: user, id: id, from: from, to: to, connection)
                }
                defer { from = to }
                guard span.count > 0, let positions = span.positions, let records = span.records, let digests = span.digests else { continue }
                let full = records.withUnsafeReadableBytes { raw -> Bool? in
                    guard positions.readableBytes == Int(span.count) * 8, digests.readableBytes == Int(span.count) * 16 else { return nil }
                    var index = positions.readerIndex, digest = digests.readerIndex
                    var full = false, sound = true
                    var count: Int64 = 0
                    do {
                        try RecordStream.forEach(in: raw) { (view: RecordView) -> RecordIteration in
                            count += 1
                            guard count <= span.count, let position = positions.getInteger(at: index, as: Int64.self),
                                  let high = digests.getInteger(at: digest, as: UInt64.self),
                                  let low = digests.getInteger(at: digest + 8, as: UInt64.self) else { sound = false; return .stop }
                            index += 8
                            digest += 16
                            // Once the page is full the rest of the span is not examined.
                            guard page.admit(position: UInt64(position)) else { full = true; return .stop }
                            if view.hasEventID, !page.lacks(device: view.device, seq: view.seq) { return .continue }
                            let computed = EventDigest.value(view)
                            guard computed.high == high, computed.low == low else { sound = false; return .stop }
                            page.append(view)
                            return .continue
                        }
                    } catch { return nil }
                    // A record surplus or not its digest, or (not full) fewer records than rows.
                    return sound && (full || count == span.count) ? full : nil
                }
                guard let full else { throw try await damage(user: user, id: id, from: from, to: to, connection) }
                if full { break scan }
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

    /// The damage in positions `from..<to`, whose span did not read as sound: each row's bytes
    /// against its digest and as one record, by device.
    private func damage(user: String, id: Int64, from: Int64, to: Int64, _ connection: PostgresConnection) async throws -> SyncServerError {
        let rows = try await connection.query("""
            SELECT device, seq, record, digest FROM events WHERE user_id = \(id) AND position >= \(from) AND position < \(to)
            UNION ALL
            SELECT device, 0, record, digest FROM device_names WHERE user_id = \(id) AND position >= \(from) AND position < \(to)
            ORDER BY 1
            """, logger: logger)
        for try await (device, seq, row, digest) in rows.decode((Int64, Int64, ByteBuffer, String).self) {
            let eventID = EventID(device: PostgresRecord.device(device), seq: UInt64(seq))
            let table = seq > 0 ? "events" : "device_names"
            try Self.checkRow(user: user, table: table, id: eventID, bytes: row, digest: digest)
            guard (try? PostgresRecord.withRecord(in: row, { _ in })) != nil else {
                throw Self.damaged(user: user, table: table, id: eventID, "its record cannot be read")
            }
        }
        return SyncServerError(.unavailable, Self.damageMessage(user: user, "positions \(from)–\(to - 1) cannot be read"))
    }

    /// The digest of the event at each device's highest seq (`server_digests`); a missing row is damage.
    private static func digests(at held: [DeviceID: UInt64], user: String, id: Int64, _ connection: PostgresConnection) async throws -> [String: String] {
        guard !held.isEmpty else { return [:] }
        let devices = held.keys.sorted()
        var digests: [String: String] = [:]
        let rows = try await connection.query("""
            SELECT e.device, e.digest FROM events e
            JOIN unnest(\(devices.map(PostgresRecord.key))::bigint[], \(devices.map { Int64(clamping: held[$0]!) })::bigint[]) AS v(d, s)
              ON e.device = v.d AND e.seq = v.s AND e.user_id + 0 = \(id)
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
