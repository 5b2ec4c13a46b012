import LedgerCore
import PostgresNIO
import SyncServer

/// What one scan of a user's rows found: the damage as `server verify` reports it, and what
/// `server repair` must set aside and restore.
struct PostgresScan {
    /// Frames that do not decode or do not hold the events their runs name, by first position:
    /// how many positions each spans.
    var damagedFrames: [Int64: Int] = [:]
    /// The events the damaged frames should hold (their runs name them).
    var unreadable: Set<EventID> = []
    /// Seqs at or below a device's highest seq that no run names, or whose run names no frame.
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

    /// Reads every row of the user: each frame decoded (every checksum) and its events compared
    /// with those its runs name; each device's runs cover seqs 1…last_seq without a hole; device
    /// names against their digest.
    func scan(_ id: Int64, _ name: String) async throws -> PostgresScan {
        var scan = PostgresScan()
        for try await (device, last) in try await client.query(
            "SELECT device, last_seq FROM devices WHERE user_id = \(id)", logger: logger).decode((Int64, Int64).self) {
            scan.lastSeqs[PostgresRecord.device(device)] = UInt64(last)
        }
        var runs: [PostgresFrames.Run] = []
        for try await (device, first, last, frame) in try await client.query(
            "SELECT device, first_seq, last_seq, frame_position FROM event_runs WHERE user_id = \(id) ORDER BY device, first_seq",
            logger: logger).decode((Int64, Int64, Int64, Int64).self) {
            runs.append(PostgresFrames.Run(device: device, firstSeq: first, lastSeq: last, frame: frame))
        }
        // Every frame: decoded, and its events those its runs name.
        var named: [Int64: Set<EventID>] = [:]
        for run in runs {
            for seq in run.firstSeq...max(run.firstSeq, run.lastSeq) {
                named[run.frame, default: []].insert(EventID(device: PostgresRecord.device(run.device), seq: UInt64(seq)))
            }
        }
        var frames = Set<Int64>()
        let reader = RecordFrames.Reader()
        let form = try await recordForm(id)
        for try await (first, count, stored) in try await client.query(
            "SELECT first_position, count, frame FROM event_frames WHERE user_id = \(id) ORDER BY first_position", logger: logger)
            .decode((Int64, Int32, ByteBuffer).self) {
            frames.insert(first)
            let expected = named[first] ?? []
            var held = Set<EventID>(), records = 0
            let fault: String? = stored.withUnsafeReadableBytes { bytes in
                do {
                    let frame = try reader.frame(bytes, records: form)
                    switch form {
                    case .plain:
                        RecordStream.forEachValidated(in: frame.records) { view in
                            records += 1
                            if view.hasEventID { held.insert(view.eventID) }
                        }
                    case .sealed:
                        try SealedRecordStream.forEach(in: frame.records) { view in
                            records += 1
                            if view.kind.holdsEvents {
                                for seq in view.firstSeq...view.seq { held.insert(EventID(device: view.device, seq: seq)) }
                            }
                        }
                    }
                } catch let fault as RecordFrames.Fault { return fault.reason } catch { return "\(error)" }
                if records != Int(count) { return "it holds \(records) records, not \(count)" }
                return held == expected ? nil : "it does not hold the events its runs name"
            }
            guard let fault else { continue }
            scan.damagedFrames[first] = Int(count)
            scan.unreadable.formUnion(expected)
            let firstID = expected.min()
            scan.damage.append(StoreDamage(user: name, location: "event_frames", device: firstID?.device.description, seq: firstID?.seq,
                                           message: "the frame at \(PostgresFrames.span(first, Int(count))) cannot be read (\(fault))"
                                               + (expected.isEmpty ? "" : "; it holds \(Self.ranges(expected))")))
        }
        // Every device's seqs 1…last_seq in runs whose frames exist.
        var covered: [DeviceID: [(UInt64, UInt64)]] = [:]
        for run in runs where frames.contains(run.frame) {
            covered[PostgresRecord.device(run.device), default: []].append((UInt64(run.firstSeq), UInt64(run.lastSeq)))
        }
        for (device, last) in scan.lastSeqs.sorted(by: { $0.key < $1.key }) {
            var lacking: [UInt64] = []
            var next: UInt64 = 1
            for (first, lastOfRun) in covered[device] ?? [] {
                if first > next { lacking += Array(next..<first) }
                next = max(next, lastOfRun + 1)
            }
            if last >= next { lacking += Array(next...last) }
            guard let lowest = lacking.first else { continue }
            let ids = lacking.map { EventID(device: device, seq: $0) }
            scan.missing += ids
            scan.damage.append(StoreDamage(user: name, location: "event_runs", device: device.description, seq: lowest,
                                           message: "\(Self.ranges(Set(ids))): no stored event (the device's highest seq is \(last))"))
        }
        for try await (key, hlc, bytes, digest) in try await client.query(
            "SELECT device, hlc, record, digest FROM device_names WHERE user_id = \(id) ORDER BY device, hlc", logger: logger)
            .decode((Int64, Int64, ByteBuffer, String).self) where PostgresRecord.digest(bytes) != digest {
            scan.damage.append(StoreDamage(user: name, location: "device_names", device: PostgresRecord.device(key).description,
                                           message: "the name of device \(PostgresRecord.device(key)) dated \(PostgresRecord.hlc(hlc)) does not match its digest"))
        }
        scan.missing.sort()
        return scan
    }

    /// What the user's frames hold: an encrypted account's are sealed records (§11).
    func recordForm(_ id: Int64) async throws -> LedgerRecords {
        var encrypted = false
        for try await value in try await client.query("SELECT key_epoch IS NOT NULL FROM users WHERE id = \(id)", logger: logger)
            .decode(Bool.self) { encrypted = value }
        return encrypted ? .sealed : .plain
    }
}
