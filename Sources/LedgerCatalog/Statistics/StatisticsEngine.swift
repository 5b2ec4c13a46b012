import LedgerCore

/// Derives the four statistics hierarchies on demand from the catalogue and a completions
/// state; nothing is stored (Schemas/domain-rules.md §17–§22).
///
/// Counting rules are the originals' (Schemas/domain-rules.md §17, iOS `Database.m`): every level counts
/// enabled stations; the operator-type and operator levels also require an enabled operator, and
/// the line level an enabled line. A station counts once everywhere except at the line level,
/// where it counts once per enabled line it is on. Ratios are truncated per-mille. The reading levels
/// use the key of the first min(2, length) characters everywhere, so 「つ」 (津) is a group of
/// its own whose header count is right.
package struct StatisticsEngine {
    package let catalog: CatalogSnapshot
    private let compDates: [UInt32: UInt32]
    private let memos: [UInt32: String]
    /// Enabled stations in `s_id` order: the counting set of every level.
    private let countable: [CatalogStation]
    private let countableIDs: Set<UInt32>

    package init(catalog: CatalogSnapshot, projection: CompletionsProjection) {
        self.catalog = catalog
        var dates: [UInt32: UInt32] = [:]
        var memos: [UInt32: String] = [:]
        for (station, row) in projection.sortedRows() {
            dates[station] = row.compDate
            if !row.memo.isEmpty { memos[station] = row.memo }
        }
        compDates = dates
        self.memos = memos
        countable = catalog.stations.filter(\.enabled)
        countableIDs = Set(countable.map(\.id))
    }

    private func date(_ s: UInt32) -> UInt32 { compDates[s] ?? 0 }

    private func counts<S: Sequence>(_ stations: S) -> StatsCounts where S.Element == CatalogStation {
        var total = 0, completed = 0
        for s in stations {
            total += 1
            if date(s.id) > 0 { completed += 1 }
        }
        return StatsCounts(total: total, completed: completed)
    }

    private func entry(_ s: CatalogStation) -> StatsStation {
        StatsStation(station: s.id, name: s.name, compDate: date(s.id), memo: memos[s.id] ?? "")
    }

    package func report(_ hierarchy: StatsHierarchy, path: [String]) throws -> StatsReport {
        switch hierarchy {
        case .operators: return try operators(path)
        case .prefectures: return try prefectures(path)
        case .yomi: return try yomi(path)
        case .dates: return try dates(path)
        }
    }

    static func unknownKey(_ key: String, _ what: String) -> LedgerError {
        LedgerError(.badInput, "'\(key)' is not \(what) with countable stations in this catalogue")
    }

    private static func tooDeep(_ hierarchy: StatsHierarchy, _ levels: Int) -> LedgerError {
        LedgerError(.usage, "stats \(hierarchy.rawValue) takes at most \(levels) keys")
    }

    // MARK: operator type → operator → line → stations

    private func operators(_ path: [String]) throws -> StatsReport {
        guard path.count <= 3 else { throw Self.tooDeep(.operators, 3) }
        var report = StatsReport(hierarchy: .operators, path: path, pathLabels: [], counts: counts(countable))
        // Operator levels: enabled stations of enabled operators.
        var byType: [Int64: [CatalogStation]] = [:]
        for s in countable {
            if let op = catalog.operator(s.operatorID), op.enabled { byType[op.type, default: []].append(s) }
        }
        let types = byType.keys.sorted()
        guard let typeKey = path.first else {
            report.groups = types.map { StatsGroup(key: String($0), label: CatalogNames.operatorType($0), counts: counts(byType[$0]!)) }
            return report
        }
        let type = try Self.typeKey(typeKey, among: types), typeStations = byType[type]!
        report.enter(level: 0, id: type, name: CatalogNames.operatorType(type))
        report.counts = counts(typeStations)
        var byOperator: [Int64: [CatalogStation]] = [:]
        for s in typeStations { byOperator[s.operatorID, default: []].append(s) }
        guard path.count > 1 else {
            report.groups = byOperator.keys.sorted().map { id in
                StatsGroup(key: String(id), label: catalog.operator(id)?.name ?? "", counts: counts(byOperator[id]!))
            }
            return report
        }
        let operatorID = try operatorKey(path[1], among: Set(byOperator.keys), type: type)
        guard let operatorStations = byOperator[operatorID], let op = catalog.operator(operatorID) else {
            throw Self.unknownKey(path[1], "an operator of type \(type)")
        }
        report.enter(level: 1, id: operatorID, name: op.name)
        report.counts = counts(operatorStations)
        // Lines of the operator: enabled, with at least one enabled station; a station counts
        // once per line it is on.
        var lineMembers: [Int64: [CatalogMembership]] = [:]
        for m in catalog.memberships where countableIDs.contains(m.stationID) {
            guard let line = catalog.line(m.lineID), line.enabled, line.operatorID == operatorID else { continue }
            lineMembers[m.lineID, default: []].append(m)
        }
        func stations(_ members: [CatalogMembership]) -> [CatalogStation] {
            members.sorted { ($0.sort, $0.stationID) < ($1.sort, $1.stationID) }.compactMap { catalog.station($0.stationID) }
        }
        guard path.count > 2 else {
            report.groups = lineMembers.keys.sorted().map { id in
                StatsGroup(key: String(id), label: catalog.line(id)?.name ?? "", counts: counts(stations(lineMembers[id]!)))
            }
            return report
        }
        let lineID = try lineKey(path[2], among: Set(lineMembers.keys), operator: operatorID)
        guard let members = lineMembers[lineID], let line = catalog.line(lineID) else {
            throw Self.unknownKey(path[2], "a line of operator \(operatorID)")
        }
        report.enter(level: 2, id: lineID, name: line.name)
        let list = stations(members)
        report.counts = counts(list)
        report.stations = list.map(entry)
        return report
    }

    // MARK: prefecture → stations

    private func prefectures(_ path: [String]) throws -> StatsReport {
        guard path.count <= 1 else { throw Self.tooDeep(.prefectures, 1) }
        var report = StatsReport(hierarchy: .prefectures, path: path, pathLabels: [], counts: counts(countable))
        var byPref: [Int64: [CatalogStation]] = [:]
        for s in countable { byPref[s.pref, default: []].append(s) }
        guard let key = path.first else {
            report.groups = byPref.keys.sorted().map { StatsGroup(key: String($0), label: CatalogNames.prefecture($0), counts: counts(byPref[$0]!)) }
            return report
        }
        let pref = try Self.prefectureKey(key, among: Set(byPref.keys)), list = byPref[pref]!
        report.enter(level: 0, id: pref, name: CatalogNames.prefecture(pref))
        report.counts = counts(list)
        // By address in code-point order (SQLite's BINARY collation), then s_id.
        report.stations = list.sorted { Self.codePointOrder($0.address, $1.address, $0.id, $1.id) }.map(entry)
        return report
    }

    // MARK: first kana → first two kana → stations

    /// The first `n` Unicode scalars of a reading (code points, as SQLite's substr counts).
    package static func prefix(_ yomi: String, _ n: Int) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: yomi.unicodeScalars.prefix(n))
        return String(out)
    }

    private func yomi(_ path: [String]) throws -> StatsReport {
        guard path.count <= 2 else { throw Self.tooDeep(.yomi, 2) }
        var report = StatsReport(hierarchy: .yomi, path: path, pathLabels: [], counts: counts(countable))
        func grouped(_ stations: [CatalogStation], _ n: Int) -> [(String, [CatalogStation])] {
            var groups: [String: [CatalogStation]] = [:]
            for s in stations { groups[Self.prefix(s.yomi, n), default: []].append(s) }
            return groups.sorted { Self.codePointOrder($0.key, $1.key, 0, 0) }.map { ($0.key, $0.value) }
        }
        let level1 = grouped(countable, 1)
        let path = path.map(Self.readingKey)
        report.path = path
        guard let first = path.first else {
            report.groups = level1.map { StatsGroup(key: $0.0, label: $0.0, counts: counts($0.1)) }
            return report
        }
        guard let group = level1.first(where: { $0.0 == first }) else { throw Self.unknownKey(first, "a first kana") }
        report.pathLabels.append(first)
        report.counts = counts(group.1)
        let level2 = grouped(group.1, 2)
        guard path.count > 1 else {
            report.groups = level2.map { StatsGroup(key: $0.0, label: $0.0, counts: counts($0.1)) }
            return report
        }
        guard let sub = level2.first(where: { $0.0 == path[1] }) else { throw Self.unknownKey(path[1], "a two-kana key under '\(first)'") }
        report.pathLabels.append(path[1])
        report.counts = counts(sub.1)
        report.stations = sub.1.sorted { Self.codePointOrder($0.yomi, $1.yomi, $0.id, $1.id) }.map(entry)
        return report
    }

    // MARK: year → month → day → stations (variable depth)

    private func dates(_ path: [String]) throws -> StatsReport {
        let all = counts(countable)
        var report = StatsReport(hierarchy: .dates, path: path, pathLabels: [], counts: all)
        let completed = countable.filter { date($0.id) > 0 }
        let completedCount = completed.count
        func list(_ code: UInt32) -> [StatsStation] {
            countable.filter { date($0.id) == code }.map(entry)
        }
        guard let first = path.first else {
            var byYear: [UInt32: Int] = [:]
            var unknown = 0
            for s in completed {
                let code = date(s.id)
                if code < 19_000_000 { unknown += 1 } else { byYear[code / 10000, default: 0] += 1 }
            }
            var groups = byYear.keys.sorted(by: >).map {
                StatsGroup(key: String($0), label: "\($0)年", counts: StatsCounts(total: completedCount, completed: byYear[$0]!))
            }
            if unknown > 0 {
                groups.append(StatsGroup(key: "unknown", label: "年月日不明", counts: StatsCounts(total: completedCount, completed: unknown)))
            }
            if all.remaining > 0 {
                groups.append(StatsGroup(key: "incomplete", label: "未乗下車", counts: StatsCounts(total: all.total, completed: all.remaining)))
            }
            report.groups = groups
            return report
        }
        switch first {
        case "unknown", "incomplete":
            guard path.count == 1 else { throw Self.tooDeep(.dates, 1) }
            let code: UInt32 = first == "unknown" ? 1 : 0
            let stations = list(code)
            guard !stations.isEmpty else { throw Self.unknownKey(first, "a date group") }
            report.pathLabels.append(first == "unknown" ? "年月日不明" : "未乗下車")
            report.counts = first == "unknown" ? StatsCounts(total: completedCount, completed: stations.count)
                                               : StatsCounts(total: all.total, completed: stations.count)
            report.stations = stations
            return report
        default:
            break
        }
        guard first.count == 4, let year = UInt32(first), year >= 1900 else { throw Self.unknownKey(first, "a year") }
        let inYear = completed.map { date($0.id) }.filter { $0 / 10000 == year }
        guard !inYear.isEmpty else { throw Self.unknownKey(first, "a year") }
        report.pathLabels.append("\(year)年")
        report.counts = StatsCounts(total: completedCount, completed: inYear.count)
        var byMonth: [UInt32: Int] = [:]
        for code in inYear { byMonth[code / 100, default: 0] += 1 }
        // Ascending, with the unknown (MM = 00) group last.
        let months = byMonth.keys.sorted { ($0 % 100 == 0 ? 1 : 0, $0) < ($1 % 100 == 0 ? 1 : 0, $1) }
        func monthLabel(_ m: UInt32) -> String { m % 100 == 0 ? "\(year)年 月日不明" : "\(year)年\(m % 100)月" }
        guard path.count > 1 else {
            report.groups = months.map { StatsGroup(key: String($0), label: monthLabel($0), counts: StatsCounts(total: inYear.count, completed: byMonth[$0]!)) }
            return report
        }
        guard path[1].count == 6, let month = UInt32(path[1]), let monthCount = byMonth[month] else {
            throw Self.unknownKey(path[1], "a month (YYYYMM, or YYYY00 for month unknown) of \(year)")
        }
        report.pathLabels.append(monthLabel(month))
        report.counts = StatsCounts(total: inYear.count, completed: monthCount)
        if month % 100 == 0 {
            guard path.count == 2 else { throw LedgerError(.usage, "\(month) (month unknown) is a station list; it takes no further key") }
            report.stations = list(month * 100)
            return report
        }
        var byDay: [UInt32: Int] = [:]
        for code in inYear where code / 100 == month { byDay[code, default: 0] += 1 }
        let days = byDay.keys.sorted { ($0 % 100 == 0 ? 1 : 0, $0) < ($1 % 100 == 0 ? 1 : 0, $1) }
        func dayLabel(_ d: UInt32) -> String {
            d % 100 == 0 ? "\(year)年\(month % 100)月 日付不明" : "\(year)年\(month % 100)月\(d % 100)日"
        }
        guard path.count > 2 else {
            report.groups = days.map { StatsGroup(key: String($0), label: dayLabel($0), counts: StatsCounts(total: monthCount, completed: byDay[$0]!)) }
            return report
        }
        guard path.count == 3 else { throw Self.tooDeep(.dates, 3) }
        guard path[2].count == 8, let day = UInt32(path[2]), let dayCount = byDay[day] else {
            throw Self.unknownKey(path[2], "a day (YYYYMMDD, or YYYYMM00 for day unknown) of \(month)")
        }
        report.pathLabels.append(dayLabel(day))
        report.counts = StatsCounts(total: monthCount, completed: dayCount)
        report.stations = list(day)
        return report
    }

    /// Code-point (UTF-8 byte) order, as SQLite's BINARY collation; ties by `s_id`.
    static func codePointOrder(_ a: String, _ b: String, _ ia: UInt32, _ ib: UInt32) -> Bool {
        if a.utf8.elementsEqual(b.utf8) { return ia < ib }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
