import LedgerCore
import LedgerGenerator
import LedgerTestSupport
import Testing

@Suite struct HistoryGeneratorTests {
    func events(seed: UInt64, devices: Int = 3, count: Int) -> [StationEdit] {
        var generator = HistoryGenerator(seed: seed, deviceCount: devices, catalog: .synthetic(), expectedEvents: count)
        return (0..<count).map { _ in generator.next() }
    }

    @Test(arguments: [1, 2, 99] as [UInt64])
    func sameSeedSameHistory(seed: UInt64) {
        #expect(events(seed: seed, count: 5_000) == events(seed: seed, count: 5_000))
        #expect(events(seed: seed, count: 5_000) != events(seed: seed + 1, count: 5_000))
    }

    @Test(arguments: [1, 3, 8])
    func seqsAreContiguousAndHLCsIncreasePerDevice(devices: Int) {
        var lastSeq: [DeviceID: UInt64] = [:]
        var lastHLC: [DeviceID: HybridTimestamp] = [:]
        for e in events(seed: 7, devices: devices, count: 20_000) {
            #expect(e.id.seq == (lastSeq[e.id.device] ?? 0) + 1)
            #expect(e.hlc > (lastHLC[e.id.device] ?? .zero))
            #expect(e.station > 0)
            #expect(e.compDate != nil || e.memo != nil)
            lastSeq[e.id.device] = e.id.seq
            lastHLC[e.id.device] = e.hlc
        }
        #expect(lastSeq.count == devices)
    }

    @Test func mixMatchesTheIssue() {
        let all = events(seed: 3, count: 100_000)
        let share = { (predicate: (StationEdit) -> Bool) in Double(all.filter(predicate).count) / Double(all.count) }
        #expect((0.03...0.07).contains(share { $0.memo != nil }))
        #expect((0.005...0.02).contains(share { $0.compDate == .notCompleted }))
        #expect(share { if case .day = $0.compDate { return true }; return false } > 0.6)
        #expect(share { if case .month = $0.compDate { return true }; return false } > 0.03)
        #expect(share { if case .year = $0.compDate { return true }; return false } > 0.01)
        #expect(share { $0.compDate == .unknown } > 0.005)
        #expect(all.contains { $0.memo?.contains("\n") == true })
        // Devices interleave: the log switches device often.
        let switches = zip(all, all.dropFirst()).filter { $0.id.device != $1.id.device }.count
        #expect(switches > all.count / 20)
        // No date after the event's own day, and none in the future of the history.
        let end = CalendarDay(tokyoDateOfUnixMilliseconds: HistoryGenerator.defaultEnd)
        for e in all {
            guard case .day(let y, let m, let d) = e.compDate else { continue }
            #expect(CalendarDay(year: y, month: m, day: d) <= CalendarDay(tokyoDateOfUnixMilliseconds: e.hlc.milliseconds))
            #expect(CalendarDay(year: y, month: m, day: d) <= end)
        }
    }

    @Test func tripsRunAlongOneLine() {
        let catalog = LineCatalog.synthetic()
        var neighbours = Set<UInt64>()
        for line in catalog.lines {
            for (a, b) in zip(line, line.dropFirst()) {
                neighbours.insert(UInt64(a) << 32 | UInt64(b))
                neighbours.insert(UInt64(b) << 32 | UInt64(a))
            }
        }
        let all = events(seed: 5, count: 20_000).filter { if case .day = $0.compDate { return $0.memo == nil }; return false }
        let adjacent = zip(all, all.dropFirst()).filter { neighbours.contains(UInt64($0.station) << 32 | UInt64($1.station)) }
        #expect(adjacent.count > all.count / 2)
    }

    @Test func writtenLedgerVerifies() throws {
        let scratch = try TemporaryDirectory("generator")
        defer { scratch.remove() }
        let directory = scratch.sub("ledger")
        let ledger = try Ledger.create(directory: directory, deviceName: "test")
        var generator = HistoryGenerator(seed: 11, deviceCount: 4, catalog: .synthetic(), expectedEvents: 25_000)
        try HistoryWriter.write(events: 25_000, from: &generator, into: ledger, batchSize: 4_000)
        let report = try ledger.verify()
        #expect(report.events == 25_000)
        #expect(report.devices == 4)
        #expect(report.frames >= 7)
        #expect(ledger.deviceNames.values.map(\.name).sorted() == ["Android", "MacBook", "iPad", "iPhone", "test"])
        // The one-call field reader agrees with the materialised records.
        var checked = 0
        try ledger.forEachRecord { view, _ in
            guard case .stationEdit(let e) = view.record else {
                #expect(view.stationEdit == nil)
                return
            }
            let fields = try #require(view.stationEdit)
            #expect(fields.id == e.id && fields.hlc == e.hlc && fields.station == e.station && fields.origin == e.origin)
            #expect(fields.hasCompDate == (e.compDate != nil) && fields.hasMemo == (e.memo != nil))
            #expect(!fields.hasCompDate || fields.compDateCode == e.compDate!.code)
            checked += 1
        }
        #expect(checked == 25_000)
        ledger.close()
        // Reopening finds the same state.
        let reopened = try Ledger.open(directory: directory)
        #expect(reopened.eventCount == 25_000)
        #expect(reopened.versionVector == Dictionary(uniqueKeysWithValues: generator.devices.map { ($0.id, $0.seq) }))
    }

    @Test func catalogDumpGivesRealLines() throws {
        let catalog = try LineCatalog.load(dumpAt: SharedData.stations176)
        #expect(catalog.lines.count > 500)
        #expect(catalog.stationCount > 9_000)
        // The Tōkaidō Shinkansen (13001) starts at Tokyo, Shinagawa, Shin-Yokohama.
        #expect(catalog.lines.contains { Array($0.prefix(3)) == [120001, 120002, 120003] })
        #expect(catalog.lines.allSatisfy { $0.allSatisfy { (120_001...399_999).contains($0) } })
    }

    @Test func parserSkipsDisabledStationsAndOtherStatements() {
        let dump = """
            CREATE TABLE IF NOT EXISTS "stations_lines" ("l_id" INTEGER NOT NULL , "s_id" INTEGER NOT NULL , "s_sort" INTEGER NOT NULL );
            INSERT OR IGNORE INTO "stations" VALUES(5,'閉駅','へいえき','',13,'a,b',1,2,3,0,0);
            INSERT OR IGNORE INTO "stations" VALUES(6,'駅(1,2)','えき','',13,'x',1,2,3,1,0);
            INSERT OR IGNORE INTO "stations_lines" VALUES(7,6,30);
            INSERT OR IGNORE INTO "stations_lines" VALUES(7,5,20);
            INSERT OR IGNORE INTO "stations_lines" VALUES(7,4,10);
            INSERT OR IGNORE INTO "stations_lines" VALUES(8,9,10);
            DELETE FROM "stations_lines" WHERE l_id=7;
            """
        let catalog = Array(dump.utf8).withUnsafeBufferPointer { LineCatalog.parse($0) }
        #expect(catalog.lines == [[4, 6]])
    }
}
