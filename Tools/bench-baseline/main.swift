// bench-baseline: the measuring half of Tools/bench.
//
// Every row of the side-by-side table is timed here, in one process, on the same events:
// our batched append vs SQLite's prepared inserts in one transaction, our replay vs `lz4 -dc`
// of the same segment files vs a full SQLite table scan, and the bytes each takes (plus JSON
// Lines). It prints `key=value` lines (medians, seconds) for the script, progress on stderr.
//
//   bench-baseline compare --ledger DIR --work DIR [--runs R] [--batch N]
//   bench-baseline replay --ledger DIR               one replay (for max RSS and process time)
//   bench-baseline append --ledger DIR --to DIR      one batched append of its events (for profiling)
//   bench-baseline merge-fixture --events N --a DIR --b DIR --union DIR [--seed S] [--devices K] [--catalog F]
import CSQLite
import LedgerCore
import LedgerGenerator

#if canImport(Glibc)
import Glibc
#endif

func note(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

func fail(_ message: String) -> Never {
    note("bench-baseline: \(message)")
    exit(64)
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU seconds used by this process so far (user + system): steadier than wall time when other
/// work shares the cores.
func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU seconds of the last child `spawn` waited for.
nonisolated(unsafe) var lastChildCPU = 0.0

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func removeTree(_ path: String) {
    if system("rm -rf '\(path)'") != 0 { fail("cannot remove \(path)") }
}

func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}

/// Runs a program with stdout to /dev/null and waits; returns its exit status.
func spawn(_ arguments: [String]) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { fail("cannot run \(arguments[0])") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    lastChildCPU = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return status
}

struct Options {
    var values: [String: String] = [:]
    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let key = iterator.next() {
            guard key.hasPrefix("--"), let value = iterator.next() else { fail("expected --option value, got \(key)") }
            values[String(key.dropFirst(2))] = value
        }
    }
    func string(_ key: String) -> String {
        guard let value = values[key] else { fail("--\(key) is required") }
        return value
    }
    func int(_ key: String, default fallback: Int? = nil) -> Int {
        guard let text = values[key] ?? fallback.map(String.init), let value = Int(text) else { fail("--\(key) needs a number") }
        return value
    }
}

// MARK: - SQLite baseline

nonisolated(unsafe) let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The events in SQLite as an application would store them: one row per event in a rowid table
/// with no secondary index (SQLite's fastest shape), default journal, synchronous=FULL.
final class SQLiteBaseline {
    let db: OpaquePointer

    init(path: String) {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let handle else {
            fail("cannot open \(path)")
        }
        db = handle
    }

    deinit { sqlite3_close(db) }

    func exec(_ sql: String) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            fail("SQLite: \(message.map { String(cString: $0) } ?? "?") in \(sql)")
        }
    }

    static let schema = """
        CREATE TABLE events (device INTEGER NOT NULL, seq INTEGER NOT NULL, hlc INTEGER NOT NULL,
                             station INTEGER NOT NULL, comp_date INTEGER, memo TEXT, origin INTEGER NOT NULL)
        """

    func insert(_ records: [LedgerRecord]) {
        exec(Self.schema)
        exec("BEGIN")
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO events VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &stmt, nil) == SQLITE_OK else {
            fail("cannot prepare the insert")
        }
        for case .stationEdit(let e) in records {
            sqlite3_bind_int64(stmt, 1, Int64(bitPattern: e.id.device.rawValue))
            sqlite3_bind_int64(stmt, 2, Int64(e.id.seq))
            sqlite3_bind_int64(stmt, 3, Int64(bitPattern: e.hlc.rawValue))
            sqlite3_bind_int64(stmt, 4, Int64(e.station))
            if let date = e.compDate { sqlite3_bind_int64(stmt, 5, Int64(date.code)) } else { sqlite3_bind_null(stmt, 5) }
            if var memo = e.memo {
                memo.withUTF8 { bytes in
                    let text = UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
                    _ = sqlite3_bind_text(stmt, 6, text, Int32(bytes.count), SQLITE_TRANSIENT)
                }
            } else {
                sqlite3_bind_null(stmt, 6)
            }
            sqlite3_bind_int64(stmt, 7, Int64(e.origin.rawValue))
            guard sqlite3_step(stmt) == SQLITE_DONE else { fail("insert failed: \(String(cString: sqlite3_errmsg(db)))") }
            sqlite3_reset(stmt)
        }
        sqlite3_finalize(stmt)
        exec("COMMIT")
    }

    /// A full scan reading every column (the memo as bytes, no String), folded into a checksum.
    func scan() -> (rows: Int, checksum: UInt64) {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT device, seq, hlc, station, comp_date, memo, origin FROM events", -1, &stmt, nil) == SQLITE_OK else {
            fail("cannot prepare the scan")
        }
        var rows = 0
        var sum: UInt64 = 0
        while sqlite3_step(stmt) == SQLITE_ROW {
            rows += 1
            sum &+= UInt64(bitPattern: sqlite3_column_int64(stmt, 0)) ^ UInt64(bitPattern: sqlite3_column_int64(stmt, 1))
            sum &+= UInt64(bitPattern: sqlite3_column_int64(stmt, 2)) &+ UInt64(bitPattern: sqlite3_column_int64(stmt, 3))
            sum &+= UInt64(bitPattern: sqlite3_column_int64(stmt, 4)) &+ UInt64(bitPattern: sqlite3_column_int64(stmt, 6))
            if sqlite3_column_text(stmt, 5) != nil { sum &+= UInt64(sqlite3_column_bytes(stmt, 5)) }
        }
        sqlite3_finalize(stmt)
        return (rows, sum)
    }
}

// MARK: - Our side

/// Replays every record of the ledger (decompress, verify checksums, validate and decode),
/// folding the same fields as the SQLite scan into a checksum.
func replay(_ ledger: Ledger) throws -> (events: Int, checksum: UInt64) {
    var events = 0
    var sum: UInt64 = 0
    try ledger.forEachRecord { view, _ in
        guard let e = view.stationEdit else { return }
        events += 1
        sum &+= e.device.rawValue ^ e.seq
        sum &+= e.hlc.rawValue &+ UInt64(e.station)
        sum &+= UInt64(e.hasCompDate ? e.compDateCode : 0) &+ UInt64(e.origin.rawValue)
        if e.hasMemo { sum &+= UInt64(view.memoBytes.count) }
    }
    return (events, sum)
}

func appendAll(_ records: [LedgerRecord], to directory: String, batch: Int) throws {
    let ledger = try Ledger.create(directory: directory, deviceName: "bench")
    defer { ledger.close() }
    var start = 0
    while start < records.count {
        let end = min(records.count, start + batch)
        try ledger.append(records[start..<end])
        start = end
    }
}

func writeJSONLines(_ records: [LedgerRecord], to path: String) {
    guard let file = fopen(path, "w") else { fail("cannot write \(path)") }
    defer { fclose(file) }
    var line = ""
    for case .stationEdit(let e) in records {
        line.removeAll(keepingCapacity: true)
        line += "{\"device\":\"\(e.id.device)\",\"seq\":\(e.id.seq),\"hlc\":\(e.hlc.rawValue),\"station\":\(e.station)"
        if let date = e.compDate { line += ",\"comp_date\":\(date.code)" }
        if let memo = e.memo { line += ",\"memo\":" + JSONText.quoted(memo) }
        line += ",\"origin\":\"\(e.origin)\"}\n"
        fputs(line, file)
    }
}

// MARK: - Commands

func compare(_ options: Options) throws {
    let source = options.string("ledger")
    let work = options.string("work")
    let runs = options.int("runs", default: 5)
    let batch = options.int("batch", default: HistoryWriter.defaultBatchSize)
    removeTree(work)
    guard mkdir(work, 0o755) == 0 else { fail("cannot create \(work)") }

    let ledger = try Ledger.open(directory: source)
    defer { ledger.close() }
    var records: [LedgerRecord] = []
    records.reserveCapacity(Int(ledger.recordCount))
    try ledger.forEachRecord { view, _ in
        // Our own device's name record belongs to the ledger, not to the history.
        if view.kind == .deviceName && view.device == ledger.localDevice { return }
        records.append(view.record)
    }
    let events = records.reduce(0) { if case .stationEdit = $1 { return $0 + 1 }; return $0 }
    let segmentPaths = ledger.segments.map(\.path)
    note("loaded \(events) events from \(source); \(runs) runs")

    var appendOurs: [Double] = [], appendSQLite: [Double] = []
    var replayOurs: [Double] = [], lz4Floor: [Double] = [], scanSQLite: [Double] = []
    var replayOursCPU: [Double] = [], lz4FloorCPU: [Double] = [], scanSQLiteCPU: [Double] = []
    var bytesOurs = 0, bytesSQLite = 0
    for run in 1...runs {
        let ours = "\(work)/ledger-\(run)", sqlitePath = "\(work)/events-\(run).sqlite"

        var t = now()
        try appendAll(records, to: ours, batch: batch)
        appendOurs.append(now() - t)

        t = now()
        do {
            let db = SQLiteBaseline(path: sqlitePath)
            db.insert(records)
        }
        appendSQLite.append(now() - t)

        let written = try Ledger.open(directory: ours)
        t = now()
        var c = cpuNow()
        let mine = try replay(written)
        replayOurs.append(now() - t)
        replayOursCPU.append(cpuNow() - c)
        bytesOurs = written.bytesOnDisk
        let paths = written.segments.map(\.path)
        written.close()
        guard mine.events == events else { fail("replay saw \(mine.events) events, expected \(events)") }

        t = now()
        guard spawn(["lz4", "-d", "-c", "-m", "-q"] + paths) == 0 else { fail("lz4 -dc failed") }
        lz4Floor.append(now() - t)
        lz4FloorCPU.append(lastChildCPU)

        let db = SQLiteBaseline(path: sqlitePath)
        t = now()
        c = cpuNow()
        let scanned = db.scan()
        scanSQLite.append(now() - t)
        scanSQLiteCPU.append(cpuNow() - c)
        guard scanned.rows == events, scanned.checksum == mine.checksum else {
            fail("the SQLite scan (\(scanned.rows) rows) does not match the replay (\(mine.events) events)")
        }
        bytesSQLite = fileSize(sqlitePath)
        note("run \(run): append \(appendOurs.last!) s vs SQLite \(appendSQLite.last!) s; replay \(replayOurs.last!) s, lz4 -dc \(lz4Floor.last!) s, SQLite scan \(scanSQLite.last!) s")
        removeTree(ours)
        if unlink(sqlitePath) != 0 { fail("cannot remove \(sqlitePath)") }
    }
    writeJSONLines(records, to: "\(work)/events.jsonl")
    let bytesJSONL = fileSize("\(work)/events.jsonl")
    unlink("\(work)/events.jsonl")
    _ = segmentPaths

    print("events=\(events)")
    print("runs=\(runs)")
    print("append_ours_s=\(median(appendOurs))")
    print("append_sqlite_s=\(median(appendSQLite))")
    print("replay_ours_s=\(median(replayOurs))")
    print("replay_lz4_s=\(median(lz4Floor))")
    print("scan_sqlite_s=\(median(scanSQLite))")
    print("replay_ours_cpu_s=\(median(replayOursCPU))")
    print("replay_lz4_cpu_s=\(median(lz4FloorCPU))")
    print("scan_sqlite_cpu_s=\(median(scanSQLiteCPU))")
    print("bytes_ours=\(bytesOurs)")
    print("bytes_sqlite=\(bytesSQLite)")
    print("bytes_jsonl=\(bytesJSONL)")
}

func replayOnce(_ options: Options) throws {
    let ledger = try Ledger.open(directory: options.string("ledger"))
    defer { ledger.close() }
    let t = now()
    let result = try replay(ledger)
    print("events=\(result.events)")
    print("replay_s=\(now() - t)")
}

/// One batched append of the ledger's events into a new ledger (for profiling).
func appendOnce(_ options: Options) throws {
    let ledger = try Ledger.open(directory: options.string("ledger"))
    let records = try ledger.allRecords().filter {
        if case .deviceName(let name) = $0 { return name.device != ledger.localDevice }
        return true
    }
    ledger.close()
    let target = options.string("to")
    removeTree(target)
    let t = now()
    try appendAll(records, to: target, batch: options.int("batch", default: HistoryWriter.defaultBatchSize))
    print("append_s=\(now() - t)")
}

/// Two ledgers of `events` events each that share their first half (same devices, same
/// events), plus their union, for the merge row.
func mergeFixture(_ options: Options) throws {
    let events = options.int("events")
    let seed = UInt64(options.int("seed", default: 1))
    let devices = options.int("devices", default: 3)
    let catalog = try options.values["catalog"].map { try LineCatalog.load(dumpAt: $0) } ?? LineCatalog.synthetic()
    let half = events / 2
    func generator(_ seed: UInt64, _ count: Int) -> HistoryGenerator {
        HistoryGenerator(seed: seed, deviceCount: devices, catalog: catalog, expectedEvents: count)
    }
    for (key, parts) in [("a", [seed, seed + 1]), ("b", [seed, seed + 2]), ("union", [seed, seed + 1, seed + 2])] {
        let directory = options.string(key)
        removeTree(directory)
        let ledger = try Ledger.create(directory: directory, deviceName: "merge-\(key)")
        for (index, partSeed) in parts.enumerated() {
            var g = generator(partSeed, half)
            // The shared part keeps the default time span; the others follow it in time.
            if index > 0 {
                g = HistoryGenerator(seed: partSeed, deviceCount: devices, catalog: catalog, expectedEvents: half,
                                     start: HistoryGenerator.defaultEnd - 86_400_000 * 365,
                                     end: HistoryGenerator.defaultEnd)
            }
            try HistoryWriter.write(events: index == 0 ? half : events - half, from: &g, into: ledger)
        }
        note("wrote \(directory): \(ledger.eventCount) events")
        ledger.close()
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: bench-baseline compare|replay|merge-fixture --option value …") }
do {
    let options = Options(arguments.dropFirst(2))
    switch arguments[1] {
    case "compare": try compare(options)
    case "replay": try replayOnce(options)
    case "append": try appendOnce(options)
    case "merge-fixture": try mergeFixture(options)
    default: fail("unknown command \(arguments[1])")
    }
} catch {
    fail("\(error)")
}
