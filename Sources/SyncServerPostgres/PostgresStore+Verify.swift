import LedgerCore
import PostgresNIO
import SyncServer

/// What one scan of a user's rows found: the damage as `server verify` reports it, and the
/// event ids `server repair` must restore.
struct PostgresScan {
    /// Rows whose record bytes do not match their digest (or cannot be read), with the digest
    /// recorded and the digest of the bytes as they are.
    var unreadable: [EventID: (recorded: String, actual: String)] = [:]
    /// Seqs at or below a device's highest seq with no row.
    var missing: [EventID] = []
    /// Each device's highest seq as `devices.last_seq` records it.
    var lastSeqs: [DeviceID: UInt64] = [:]
    var damage: [StoreDamage] = []
}

extension PostgresStore {
    package func verify(user: String?) async throws -> [StoreDamage] {
        var damage: [StoreDamage] = []
        for (id, name) in try await userRows(user) {
            let found = try await scan(id, name).damage
            // Recorded, so that serving answers this user 503 from now on (and sound again after
            // a repair or by hand).
            try await recordDamage(id, found.first.map { Self.damageMessage(user: name, "table \($0.location): \($0.message)") })
            damage += found
        }
        return damage
    }

    /// Every user (id, name) by name, or the one named; an unknown name is refused.
    func userRows(_ user: String?) async throws -> [(Int64, String)] {
        var users: [(Int64, String)] = []
        let rows = user.map { "SELECT id, name FROM users WHERE name = \($0)" as PostgresQuery }
            ?? "SELECT id, name FROM users ORDER BY name COLLATE \"C\""
        for try await row in try await client.query(rows, logger: logger).decode((Int64, String).self) { users.append(row) }
        if let user, users.isEmpty { throw LedgerError(.missingLedger, "no user '\(user)' in \(location.redacted)") }
        return users
    }

    /// Reads every row of the user in (device, seq) order: each row's bytes against its digest and
    /// its key, then each device's seqs 1…last_seq without a hole; device names against their digest.
    func scan(_ id: Int64, _ name: String) async throws -> PostgresScan {
        var scan = PostgresScan()
        var expected: [DeviceID: UInt64] = [:]
        for try await (device, last) in try await client.query(
            "SELECT device, last_seq FROM devices WHERE user_id = \(id)", logger: logger).decode((Int64, Int64).self) {
            expected[PostgresRecord.device(device)] = UInt64(last)
        }
        scan.lastSeqs = expected
        var seen: [DeviceID: UInt64] = [:]
        func gap(_ device: DeviceID, after held: UInt64, before next: UInt64) {
            guard next > held + 1 else { return }
            for seq in (held + 1)..<next { scan.missing.append(EventID(device: device, seq: seq)) }
            let range = next - 1 == held + 1 ? "\(held + 1)" : "\(held + 1)–\(next - 1)"
            scan.damage.append(StoreDamage(user: name, location: "events", device: device.description, seq: held + 1,
                                           message: "device \(device) has no row for seq \(range) (its highest is \(expected[device] ?? 0))"))
        }
        let rows = try await client.query(
            "SELECT device, seq, record, digest FROM events WHERE user_id = \(id) ORDER BY device, seq", logger: logger)
        for try await (key, seq, bytes, digest) in rows.decode((Int64, Int64, ByteBuffer, String).self) {
            let device = PostgresRecord.device(key), eventID = EventID(device: device, seq: UInt64(seq))
            gap(device, after: seen[device] ?? 0, before: eventID.seq)
            seen[device] = eventID.seq
            let actual = PostgresRecord.digest(bytes)
            let record = try? PostgresRecord.decode(bytes)
            if actual != digest || record?.eventID != eventID {
                scan.unreadable[eventID] = (digest, actual)
                scan.damage.append(StoreDamage(user: name, location: "events", device: device.description, seq: eventID.seq,
                                               message: "event \(eventID): its record does not match its digest"))
            }
        }
        for (device, last) in expected.sorted(by: { $0.key < $1.key }) { gap(device, after: seen[device] ?? 0, before: last + 1) }
        for try await (key, hlc, bytes, digest) in try await client.query(
            "SELECT device, hlc, record, digest FROM device_names WHERE user_id = \(id) ORDER BY device, hlc", logger: logger)
            .decode((Int64, Int64, ByteBuffer, String).self) where PostgresRecord.digest(bytes) != digest {
            scan.damage.append(StoreDamage(user: name, location: "device_names", device: PostgresRecord.device(key).description,
                                           message: "the name of device \(PostgresRecord.device(key)) dated \(PostgresRecord.hlc(hlc)) does not match its digest"))
        }
        scan.missing.sort()
        return scan
    }
}
