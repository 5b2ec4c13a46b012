import LedgerCatalog
import LedgerCore
import LedgerGenerator

/// The inputs of the conformance corpus: records and fold histories made from a seed (with the
/// edge cases named), and fixed viewports, texts, points and date codes.
enum ConformanceRecords {
    /// Device ids on both sides of 2^63 and 2^53, so that the app's 64-bit handling is exercised.
    static let devices: [DeviceID] = [
        DeviceID(rawValue: 0x0000_0000_0000_00a1), DeviceID(rawValue: 0x0020_0000_0000_0001),
        DeviceID(rawValue: 0x8000_0000_0000_0000), DeviceID(rawValue: 0xffff_ffff_ffff_fffe),
    ]
    static let stations: [UInt32] = [1_130_105, 1_130_208, 1_130_302, 2_100_402, 1_180_307]

    static func hlc(_ random: inout SeededRandom) -> HybridTimestamp {
        HybridTimestamp(milliseconds: 1_600_000_000_000 + Int64(random.next() % 200_000_000_000),
                        counter: UInt16(random.next() % 4 == 0 ? random.next() % 65_536 : 0))
    }

    static func date(_ random: inout SeededRandom) -> CompletionDate {
        switch random.next() % 6 {
        case 0: return .notCompleted
        case 1: return .unknown
        case 2: return .year(1990 + Int(random.next() % 35))
        case 3: return .month(2000 + Int(random.next() % 25), 1 + Int(random.next() % 12))
        default: return .day(2000 + Int(random.next() % 25), 1 + Int(random.next() % 12), 1 + Int(random.next() % 28))
        }
    }

    static let memos = ["", "始発で", "乗り換え\n改札外", "ＪＲ ｶﾀｶﾅ 🚃", String(repeating: "あ", count: 1365), "a\"quoted\" \\ back\tslash"]

    static func digestCases(_ random: inout SeededRandom) -> [LedgerRecord] {
        var records: [LedgerRecord] = []
        for (index, device) in devices.enumerated() {
            let seq = UInt64(1 + index * 1000)
            records.append(.stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: hlc(&random), station: stations[index],
                                                    compDate: date(&random), memo: nil, origin: .user)))
            records.append(.stationEdit(StationEdit(id: EventID(device: device, seq: seq + 1), hlc: hlc(&random), station: stations[index],
                                                    compDate: nil, memo: memos[index % memos.count], origin: .import)))
            records.append(.stationEdit(StationEdit(id: EventID(device: device, seq: seq + 2), hlc: hlc(&random), station: 4_294_967_295,
                                                    compDate: .day(2013, 9, 1), memo: memos[(index + 2) % memos.count], origin: .catalog)))
            records.append(.catalogVersion(CatalogVersionEvent(id: EventID(device: device, seq: seq + 3), hlc: hlc(&random), version: 176)))
            records.append(.knowledgeMark(KnowledgeMark(id: EventID(device: device, seq: seq + 4), hlc: hlc(&random),
                                                        knowledge: Dictionary(uniqueKeysWithValues: devices.filter { $0 != device }.map { ($0, random.next() % 1000 + 1) }))))
            records.append(.deviceName(DeviceNameRecord(device: device, hlc: hlc(&random), name: ["iPhone Safari", "ノートPC", "x", "Pixel Chrome"][index])))
        }
        records.append(.stationEdit(StationEdit(id: EventID(device: devices[0], seq: 9_007_199_254_740_993), hlc: HybridTimestamp(rawValue: 18_000_000_000_000_000_000 - 1),
                                                station: 1, compDate: .notCompleted, memo: memos[4], origin: .user)))
        records.append(.knowledgeMark(KnowledgeMark(id: EventID(device: devices[1], seq: 77), hlc: hlc(&random), knowledge: [:])))
        return records
    }

    /// Named histories: ties broken by device and seq, memo-only and date-only edits, clears.
    static func foldCases(_ random: inout SeededRandom) -> [(String, [LedgerRecord])] {
        let tie = HybridTimestamp(milliseconds: 1_700_000_000_000)
        func edit(_ device: Int, _ seq: UInt64, _ hlc: HybridTimestamp, _ station: UInt32, _ date: CompletionDate?, _ memo: String?) -> LedgerRecord {
            .stationEdit(StationEdit(id: EventID(device: devices[device], seq: seq), hlc: hlc, station: station, compDate: date, memo: memo, origin: .user))
        }
        var cases: [(String, [LedgerRecord])] = [
            ("one edit", [edit(0, 1, tie, stations[0], .day(2013, 9, 1), "memo")]),
            ("equal hlc: the higher device wins", [edit(3, 1, tie, stations[0], .year(2001), nil), edit(0, 1, tie, stations[0], .year(2002), nil)]),
            ("equal hlc and device: the higher seq wins", [edit(1, 2, tie, stations[0], .year(2003), nil), edit(1, 1, tie, stations[0], .year(2004), nil)]),
            ("a memo-only edit keeps the date", [edit(0, 1, tie, stations[1], .month(2010, 5), "a"), edit(1, 1, HybridTimestamp(rawValue: tie.rawValue + 1), stations[1], nil, "b")]),
            ("un-complete and clear the memo", [edit(0, 1, tie, stations[2], .unknown, "x"), edit(0, 2, HybridTimestamp(rawValue: tie.rawValue + 5), stations[2], .notCompleted, "")]),
            ("an older edit arriving later loses", [edit(2, 1, HybridTimestamp(rawValue: tie.rawValue + 9), stations[3], .day(2020, 2, 29), nil), edit(0, 1, tie, stations[3], .day(1999, 1, 1), "old")]),
            ("hlcs above 2^53 differing in the last bit", [edit(0, 1, HybridTimestamp(rawValue: 9_007_199_254_740_993), stations[4], .year(2015), nil),
                                                          edit(1, 1, HybridTimestamp(rawValue: 9_007_199_254_740_992), stations[4], .year(2016), nil)]),
            ("catalogue versions and marks are not station edits", [
                .catalogVersion(CatalogVersionEvent(id: EventID(device: devices[0], seq: 1), hlc: tie, version: 176)),
                .knowledgeMark(KnowledgeMark(id: EventID(device: devices[0], seq: 2), hlc: tie, knowledge: [devices[1]: 3])),
                .deviceName(DeviceNameRecord(device: devices[0], hlc: tie, name: "Phone")),
                edit(0, 3, tie, stations[0], .year(2000), nil)]),
        ]
        for round in 0..<24 {
            var events: [LedgerRecord] = []
            var seqs = [UInt64](repeating: 0, count: devices.count)
            for _ in 0..<(1 + Int(random.next() % 40)) {
                let device = Int(random.next() % UInt64(devices.count))
                seqs[device] += 1
                let base = random.next() % 3 == 0 ? tie : hlc(&random)
                let which = random.next() % 3
                events.append(edit(device, seqs[device], base, stations[Int(random.next() % UInt64(stations.count))],
                                   which == 1 ? nil : date(&random), which == 0 ? nil : memos[Int(random.next() % UInt64(memos.count))]))
            }
            cases.append(("seeded \(round)", events))
        }
        return cases
    }

    /// Viewports (micro-degrees, S W N E): the country, cities, a station's surroundings, a
    /// box around a shared position, the sea.
    static let viewports: [(String, MapBox)] = [
        ("Japan", MapBox(south: 24_000_000, west: 122_000_000, north: 46_000_000, east: 146_000_000)),
        ("Kanto", MapBox(south: 35_000_000, west: 139_000_000, north: 36_500_000, east: 140_500_000)),
        ("central Tokyo", MapBox(south: 35_640_000, west: 139_680_000, north: 35_720_000, east: 139_800_000)),
        ("Shinjuku close up", MapBox(south: 35_685_000, west: 139_695_000, north: 35_695_000, east: 139_705_000)),
        ("Odawara", MapBox(south: 35_240_000, west: 139_130_000, north: 35_280_000, east: 139_180_000)),
        ("Osaka panned", MapBox(south: 34_650_000, west: 135_450_000, north: 34_750_000, east: 135_550_000)),
        ("Osaka panned east", MapBox(south: 34_650_000, west: 135_470_000, north: 34_750_000, east: 135_570_000)),
        ("Hokkaido", MapBox(south: 41_000_000, west: 139_500_000, north: 45_600_000, east: 146_000_000)),
        ("the Pacific", MapBox(south: 30_000_000, west: 150_000_000, north: 31_000_000, east: 151_000_000)),
    ]

    static let searchTexts = ["しんじゅく", "シンジュク", "ｼﾝｼﾞｭｸ", "新宿", "新宿駅", "駒ヶ根", "駒ケ根", "こまがね", "津", "津駅", "高岡駅", "とうきょう",
                              "東京", "ＪＲ", "丸ノ内", "おだわら", "小田原", "はかた", "ヶ", "shinjuku", "", "  新宿  "]

    /// (name, lat, lng, limit): on a station, between stations, at sea.
    static let points: [(String, Double, Double, Int)] = [
        ("near 小田原", 35.256_464, 139.155_031, 10),
        ("東京駅", 35.681_382, 139.766_084, 20),
        ("新宿", 35.690_921, 139.700_258, 10),
        ("札幌", 43.068_661, 141.350_755, 5),
        ("off Chiba at sea", 35.0, 141.0, 3),
        ("Naha", 26.212_401, 127.680_932, 10),
    ]

    static let dateCodes: [UInt32] = [0, 1, 2, 18_990_000, 19_000_000, 20_130_000, 20_130_900, 20_130_901, 20_130_229, 20_120_229,
                                      20_131_300, 20_130_931, 20_130_032, 20_000_229, 21_000_229, 99_991_231, 4_294_967_295, 20_130_001]
    /// Date texts as people type them: unpadded months and days, full-width digits and dashes,
    /// the `unknown` forms, the original apps' keywords, and near misses (Conformance/date-groups.jsonl).
    static let dateTexts: [String] = [
        "2013", "2013-09", "2013-9", "2013-09-01", "2013-9-1", "2013-09-1", "unknown", "2013-unknown", "2013-9-UNKNOWN",
        "２０１３−０９−０１", "２０１３-09-01", "２０１３－９－１", "２０１３ー９", "2013‐09‐01", " 2013-09 ", "　２０１３　",
        "13", "2013-13", "2013-02-30", "2012-2-29", "1899", "2013-09-01-unknown", "x", "", "2013--1", "2013-009", "２０１３/９/１",
        // The original apps' keywords (DateText.keywordForm).
        "2013年9月1日", "2013年9月", "2013年9月頃", "2013年", "2013年頃", "不明", "年月日不明", "2013年 月日不明", "2013年9月 日付不明",
        "２０１３年９月１日", "2013年13月", "2013年9月1日 不明", "1年2月3日4時", "月",
    ]
}
