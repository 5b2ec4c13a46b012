import LedgerCore
import LedgerSync
import Logging
import PostgresNIO
import SyncServer

/// Records as the PostgreSQL store keeps them (Schemas/server-store.md, "Frames and runs"): the
/// data frames of a format-2 segment, one `event_frames` row per LZ4 frame at the position of its
/// first record, stored as they came when a push's frames are taken whole; one `event_runs` row
/// per run of consecutive seqs of one device in one frame, so that an event is found by
/// `(device, seq)` without decoding; and two small indexes of what requests read without decoding
/// either: `device_names` (the admission's stored names) and `catalog_versions`.
struct PostgresFrames {
    struct Run: Equatable {
        var device: Int64, firstSeq: Int64, lastSeq: Int64, frame: Int64
    }

    /// The frames back to back, and each one's first position, record count, offset and length.
    private(set) var bytes: [UInt8] = []
    private(set) var positions: [Int64] = [], counts: [Int32] = [], offsets: [Int32] = [], lengths: [Int32] = []
    private(set) var runs: [Run] = []
    private(set) var names: [(device: Int64, hlc: Int64, position: Int64, record: [UInt8])] = []
    private(set) var catalogVersions: [(device: Int64, seq: Int64, hlc: Int64, version: Int64)] = []
    /// An encrypted account's sealed device names, by their fingerprint (`RecordFingerprint`).
    private(set) var sealedNames: [(fingerprint: Int64, position: Int64, record: [UInt8])] = []
    /// One past the last position used.
    private(set) var end: Int64

    init(from first: Int64) { end = first }

    /// Leaves the positions up to `position` unused (a gap, as after a repair).
    mutating func skip(to position: Int64) { end = max(end, position) }

    /// Adds `records` (validated, in order) at the next positions as the frames `frames` holding
    /// `counts` records each (`RecordFrames.Received`), or, without frames, as frames written here.
    mutating func append(_ records: EncodedRecords, writer: RecordFrames.Writer) {
        append(frames: records.frames ?? Self.frames(of: records.bytes, writer: writer)) { note in
            records.forEach { view in
                guard view.hasEventID else {
                    note(.name(device: PostgresRecord.key(view.device), hlc: PostgresRecord.key(view.hlc),
                               record: Array(UnsafeRawBufferPointer(start: view.base, count: view.length))))
                    return
                }
                let version = view.kind == .catalogVersion ? (PostgresRecord.key(view.hlc), Int64(view.catalogVersion)) : nil
                note(.event(device: PostgresRecord.key(view.device), first: Int64(view.seq), last: Int64(view.seq), catalogVersion: version))
            }
        }
    }

    /// The same for an encrypted account's sealed records (Schemas/encryption.md §11): runs from
    /// the clear device and seqs (a sealed run's, §3.5, all of them); sealed names go to
    /// `sealed_names`, kept once per sealed form.
    mutating func append(_ records: SealedRecords, writer: RecordFrames.Writer) {
        append(frames: records.frames ?? Self.frames(of: records.bytes, writer: writer)) { note in
            records.forEach { view in
                if view.kind.holdsEvents {
                    note(.event(device: PostgresRecord.key(view.device), first: Int64(view.firstSeq), last: Int64(view.seq),
                                catalogVersion: nil))
                } else {
                    note(.sealedName(fingerprint: Int64(bitPattern: RecordFingerprint.of(view.bytes)), record: Array(view.bytes)))
                }
            }
        }
    }

    private static func frames(of records: [UInt8], writer: RecordFrames.Writer) -> RecordFrames.Received {
        var frames: [UInt8] = []
        let counts = records.withUnsafeBytes { writer.encode($0, appendingTo: &frames) }
        return RecordFrames.Received(bytes: frames, counts: counts)
    }

    /// One record as the tables index it.
    private enum Indexed {
        /// The events `first … last` of a device (one, but for a sealed run).
        case event(device: Int64, first: Int64, last: Int64, catalogVersion: (hlc: Int64, version: Int64)?)
        case name(device: Int64, hlc: Int64, record: [UInt8])
        case sealedName(fingerprint: Int64, record: [UInt8])
    }

    /// Adds the frames, then indexes their records, which `walk` hands to its argument in order.
    private mutating func append(frames: RecordFrames.Received, walk: ((Indexed) -> Void) -> Void) {
        guard frames.frameCount > 0 else { return }
        var next = end
        frames.forEachFrame { frame, count in
            positions.append(next)
            counts.append(Int32(count))
            offsets.append(Int32(bytes.count))
            lengths.append(Int32(frame.count))
            bytes.append(contentsOf: frame)
            next += Int64(count)
        }
        var frame = positions.count - frames.frameCount
        var position = end, frameEnd = end + Int64(counts[frame])
        var open: [Int64: Int] = [:]  // device → index in `runs` of its run in the current frame
        var current: (device: Int64, run: Int)?  // the last record's: one lookup a change of device
        walk { record in
            while position >= frameEnd && frame + 1 < positions.count {
                frame += 1
                frameEnd += Int64(counts[frame])
                open.removeAll(keepingCapacity: true)
                current = nil
            }
            let framePosition = positions[frame]
            switch record {
            case .event(let device, let first, let last, let version):
                let index = current?.device == device ? current?.run : open[device]
                if let index, runs[index].lastSeq + 1 == first {
                    runs[index].lastSeq = last
                    current = (device, index)
                } else {
                    open[device] = runs.count
                    current = (device, runs.count)
                    runs.append(Run(device: device, firstSeq: first, lastSeq: last, frame: framePosition))
                }
                if let version { catalogVersions.append((device, last, version.hlc, version.version)) }
            case .name(let device, let hlc, let record):
                names.append((device, hlc, position, record))
            case .sealedName(let fingerprint, let record):
                sealedNames.append((fingerprint, position, record))
            }
            position += 1
        }
        end = position
    }

    /// Inserts the frames, runs, catalogue versions and device names of user `id` (a name or a
    /// catalogue version stored already, which the migration and a repair store again, keeps its
    /// row; a name's position becomes the new one). The runs' key `(device, first_seq)` refuses a
    /// run starting where a stored one does (SQLSTATE 23505).
    func insert(user id: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws {
        guard !positions.isEmpty else { return }
        var frames = ByteBuffer()
        frames.writeBytes(bytes)
        try await connection.query("""
            INSERT INTO event_frames (user_id, first_position, count, frame)
            SELECT \(id), p, c, substring(\(frames)::bytea FROM o + 1 FOR l)
            FROM unnest(\(positions)::bigint[], \(counts)::integer[], \(offsets)::integer[], \(lengths)::integer[]) AS v(p, c, o, l)
            """, logger: logger)
        if !runs.isEmpty {
            try await connection.query("""
                INSERT INTO event_runs (device, first_seq, last_seq, user_id, frame_position)
                SELECT d, f, l, \(id), p FROM unnest(\(runs.map(\.device))::bigint[], \(runs.map(\.firstSeq))::bigint[],
                                                     \(runs.map(\.lastSeq))::bigint[], \(runs.map(\.frame))::bigint[]) AS v(d, f, l, p)
                """, logger: logger)
        }
        for version in catalogVersions {
            try await connection.query("""
                INSERT INTO catalog_versions (device, seq, user_id, hlc, version)
                VALUES (\(version.device), \(version.seq), \(id), \(version.hlc), \(version.version))
                ON CONFLICT (device, seq) DO NOTHING
                """, logger: logger)
        }
        try await insertSealedNames(user: id, connection, logger)
        for name in names {
            var record = ByteBuffer()
            record.writeBytes(name.record)
            try await connection.query("""
                INSERT INTO device_names (device, hlc, user_id, position, record, digest)
                VALUES (\(name.device), \(name.hlc), \(id), \(name.position), \(record), \(PostgresRecord.digest(record)))
                ON CONFLICT (device, hlc) DO UPDATE SET position = EXCLUDED.position
                """, logger: logger)
        }
    }

    /// Inserts the sealed names (a sealed form stored already keeps its row; its position becomes
    /// the new one, as a plaintext name's: a repair stores names again).
    private func insertSealedNames(user id: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws {
        for name in sealedNames {
            var record = ByteBuffer()
            record.writeBytes(name.record)
            try await connection.query("""
                INSERT INTO sealed_names (user_id, fingerprint, position, record) VALUES (\(id), \(name.fingerprint), \(name.position), \(record))
                ON CONFLICT (user_id, fingerprint) DO UPDATE SET position = EXCLUDED.position
                """, logger: logger)
        }
    }

    /// Positions `first`–`last` as a damage message names a frame.
    static func span(_ first: Int64, _ count: Int) -> String {
        count > 1 ? "positions \(first)–\(first + Int64(count) - 1)" : "position \(first)"
    }
}
