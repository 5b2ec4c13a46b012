import LedgerCore

/// Generates a realistic, reproducible stream of station edits from several devices.
///
/// The history is a sequence of trips: a device rides part of one line on one day and completes
/// a run of neighbouring stations, a few minutes apart. Between trip events come corrections of
/// earlier completions (about 10%) and un-completions (about 1%); about 5% of events carry a
/// Japanese memo, some of several lines. Dates are mostly exact days, some month-only, year-only
/// or unknown. Trips move forward in time from `start` and are spread over the devices, so the
/// devices' clocks interleave; each device's seqs run 1, 2, 3 … and its hlcs increase.
///
/// The same seed, device count, catalogue and expected size give the same events, byte for byte.
package struct HistoryGenerator {
    package struct Device: Sendable {
        package var id: DeviceID
        package var name: String
        package var seq: UInt64 = 0
        package var lastHLC = HybridTimestamp.zero
    }

    package private(set) var devices: [Device]
    package let catalog: LineCatalog
    package private(set) var generated = 0

    private var random: SeededRandom
    /// The wall-clock time of the next trip, Unix ms.
    private var clock: Int64
    private let end: Int64
    private let meanGap: Int64

    // The trip in progress.
    private var tripDevice = 0
    private var tripStations: [UInt32] = []
    private var tripNext = 0
    private var tripTime: Int64 = 0
    /// The day the trip started (Japan time): every station of the trip gets it.
    private var tripDay = CalendarDay(year: 2010, month: 1, day: 1)

    /// Recently completed stations, the candidates for corrections (bounded memory).
    private var recent: [UInt32] = []
    private var recentNext = 0
    private static let recentCapacity = 4096

    /// 2010-01-01T00:00:00+09:00 and 2026-01-01T00:00:00+09:00: fixed, so that a seed always
    /// gives the same history, and in the past, so that no date is in the future.
    package static let defaultStart: Int64 = 1_262_271_600_000
    package static let defaultEnd: Int64 = 1_767_193_200_000

    static let deviceNames = ["iPhone", "Android", "iPad", "MacBook", "Pixel Tablet", "Desktop", "Work laptop", "Old phone"]

    static let memos = [
        "乗りつぶし完了", "駅弁を買った", "始発で訪問\n雪が深かった", "乗り換えで下車", "駅スタンプあり",
        "無人駅。待合室がきれい", "記念入場券を購入", "写真を撮り忘れた", "廃止前に訪問",
        "夜行列車から降りた\n早朝の駅\n霧", "ホームから海が見える", "代行バスで通過", "友人と一緒",
        "再訪したい", "18きっぷ旅行 1日目", "", "Suica 使用不可\n現金で精算",
    ]

    package init(seed: UInt64, deviceCount: Int, catalog: LineCatalog, expectedEvents: Int,
                 start: Int64 = HistoryGenerator.defaultStart, end: Int64 = HistoryGenerator.defaultEnd) {
        precondition(deviceCount >= 1 && !catalog.lines.isEmpty)
        random = SeededRandom(seed: seed)
        self.catalog = catalog
        var devices: [Device] = []
        for index in 0..<deviceCount {
            var id: UInt64 = 0
            while id == 0 || devices.contains(where: { $0.id.rawValue == id }) { id = random.next() }
            let base = Self.deviceNames[index % Self.deviceNames.count]
            let name = index < Self.deviceNames.count ? base : "\(base) \(index / Self.deviceNames.count + 1)"
            devices.append(Device(id: DeviceID(rawValue: id), name: name))
        }
        self.devices = devices
        clock = start
        self.end = end
        // About 7.5 trip events per trip and 89% of events on trips.
        let trips = max(1, Int64(Double(expectedEvents) * 0.89 / 7.5))
        meanGap = max(1, (end - start) / trips)
        recent.reserveCapacity(Self.recentCapacity)
    }

    /// One device-name record per device, stamped at the start of the history.
    package mutating func deviceNameRecords() -> [LedgerRecord] {
        devices.indices.map { index in
            let hlc = stamp(device: index, at: clock)
            return .deviceName(DeviceNameRecord(device: devices[index].id, hlc: hlc, name: devices[index].name))
        }
    }

    /// The next event of the history.
    package mutating func next() -> StationEdit {
        generated += 1
        if tripNext >= tripStations.count { startTrip() }
        let roll = random.below(1000)
        var station: UInt32
        var date: CompletionDate?
        if roll < 100 && !recent.isEmpty {
            station = recent[random.below(recent.count)]
            date = correctedDate()
        } else if roll < 110 && !recent.isEmpty {
            station = recent[random.below(recent.count)]
            date = .notCompleted
        } else {
            station = tripStations[tripNext]
            tripNext += 1
            date = tripDate()
            remember(station)
        }
        var memo: String?
        if random.chance(permille: 50) {
            memo = Self.memos[random.below(Self.memos.count)]
            if random.chance(permille: 200) { date = nil }  // a memo-only edit
        }
        if date == nil && memo == nil { date = .unknown }
        let device = tripDevice
        devices[device].seq += 1
        let hlc = stamp(device: device, at: tripTime)
        tripTime += 60_000 + Int64(random.below(300_000))
        if station == 0 { station = 1 }
        return StationEdit(id: EventID(device: devices[device].id, seq: devices[device].seq), hlc: hlc,
                           station: station, compDate: date, memo: memo, origin: .user)
    }

    private mutating func startTrip() {
        clock = min(end, clock + meanGap / 2 + Int64(random.below(Int(meanGap))))
        tripTime = clock
        tripDay = CalendarDay(tokyoDateOfUnixMilliseconds: clock)
        // The first device is the phone that goes on most trips.
        tripDevice = random.chance(permille: 500) ? 0 : random.below(devices.count)
        let line = catalog.lines[random.below(catalog.lines.count)]
        let length = min(line.count, 2 + random.below(12))
        let first = random.below(line.count - length + 1)
        tripStations.removeAll(keepingCapacity: true)
        tripStations.append(contentsOf: line[first..<(first + length)])
        if random.chance(permille: 500) { tripStations.reverse() }
        tripNext = 0
    }

    /// The trip's day at varying precision: mostly exact, some month-only, year-only or unknown.
    private mutating func tripDate() -> CompletionDate {
        let day = tripDay
        let roll = random.below(100)
        if roll < 85 { return .day(day.year, day.month, day.day) }
        if roll < 92 { return .month(day.year, day.month) }
        if roll < 97 { return .year(day.year) }
        return .unknown
    }

    /// A corrected, earlier date for a station completed before: the user fixes a mistake.
    private mutating func correctedDate() -> CompletionDate {
        let now = CalendarDay(tokyoDateOfUnixMilliseconds: tripTime)
        let daysBack = 1 + random.below(3650)
        let nowDays = Int(tripTime / 86_400_000)
        let day = CalendarDay(daysSinceUnixEpoch: max(0, nowDays - daysBack))
        guard day.year >= CompletionDate.firstYear, day < now else { return .unknown }
        return random.chance(permille: 800) ? .day(day.year, day.month, day.day) : .month(day.year, day.month)
    }

    private mutating func remember(_ station: UInt32) {
        if recent.count < Self.recentCapacity {
            recent.append(station)
        } else {
            recent[recentNext] = station
            recentNext = (recentNext + 1) % Self.recentCapacity
        }
    }

    /// The device's next hlc at wall time `ms`: never below its previous one.
    private mutating func stamp(device: Int, at ms: Int64) -> HybridTimestamp {
        let hlc = HybridTimestamp.next(after: devices[device].lastHLC, wallClock: ms)
        devices[device].lastHLC = hlc
        return hlc
    }
}
