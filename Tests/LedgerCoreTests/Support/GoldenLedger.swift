@testable import LedgerCore

/// The reproducible ledger behind the committed golden segments: two devices, every record kind,
/// memos with newlines, and a sealed segment. The format-1 fixture (`Fixtures/golden-v1`) holds
/// `records`; the format-2 fixture (`Fixtures/golden-v2`), which `write` reproduces, holds
/// `recordsV2`: the same records and a knowledge mark.
enum GoldenLedger {
    static let phone = DeviceID(rawValue: 0xA1)
    static let tablet = DeviceID(rawValue: 0xB2)
    static let metadata = LedgerMetadata(
        ledgerID: "0123456789abcdef0123456789abcdef", device: "00000000000000a1",
        deviceName: "golden-phone", createdAt: "2013-09-01T00:00:00.000Z")
    static let clock = FixedClock(milliseconds: 1_378_000_000_000)

    static func hlc(_ ms: Int64, _ counter: UInt16 = 0) -> HybridTimestamp {
        HybridTimestamp(milliseconds: ms, counter: counter)
    }

    /// Every record, in log order, as the golden segment holds them.
    static let records: [LedgerRecord] = [
        .deviceName(DeviceNameRecord(device: phone, hlc: hlc(1_378_000_000_000), name: "golden-phone")),
        .stationEdit(StationEdit(id: EventID(device: phone, seq: 1), hlc: hlc(1_378_000_000_000, 1), station: 202_919,
                                 compDate: .day(2013, 9, 1), memo: "東京駅\n丸の内口\tで降車 \\o/", origin: .user)),
        .stationEdit(StationEdit(id: EventID(device: phone, seq: 2), hlc: hlc(1_378_000_000_000, 2), station: 120_004,
                                 compDate: .unknown, memo: nil, origin: .user)),
        .catalogVersion(CatalogVersionEvent(id: EventID(device: phone, seq: 3), hlc: hlc(1_378_000_000_000, 3), version: 176)),
        .deviceName(DeviceNameRecord(device: tablet, hlc: hlc(1_377_000_000_000), name: "タブレット")),
        .stationEdit(StationEdit(id: EventID(device: tablet, seq: 1), hlc: hlc(1_377_000_000_500), station: 300_290,
                                 compDate: .month(2012, 3), memo: nil, origin: .import)),
        .stationEdit(StationEdit(id: EventID(device: tablet, seq: 2), hlc: hlc(1_377_000_001_000), station: 306_029,
                                 compDate: .year(1987), memo: "", origin: .catalog)),
        .stationEdit(StationEdit(id: EventID(device: phone, seq: 4), hlc: hlc(1_378_000_000_000, 4), station: 202_919,
                                 compDate: nil, memo: "memo only 🚃", origin: .user)),
        .stationEdit(StationEdit(id: EventID(device: phone, seq: 5), hlc: hlc(1_378_000_000_000, 5), station: 120_004,
                                 compDate: .notCompleted, memo: nil, origin: .user)),
    ]

    static let knowledgeMark = LedgerRecord.knowledgeMark(
        KnowledgeMark(id: EventID(device: phone, seq: 6), hlc: hlc(1_378_000_000_000, 6), knowledge: [tablet: 2]))

    static var recordsV2: [LedgerRecord] { records + [knowledgeMark] }

    /// Writes the format-2 golden ledger into `directory` through the public write path.
    static func write(to directory: String) throws {
        let ledger = try Ledger.create(directory: directory, metadata: metadata, clock: clock, useLock: false)
        defer { ledger.close() }
        try ledger.appendLocal([
            StationEditDraft(station: 202_919, compDate: .day(2013, 9, 1), memo: "東京駅\n丸の内口\tで降車 \\o/"),
            StationEditDraft(station: 120_004, compDate: .unknown),
        ])
        try ledger.appendCatalogVersion(176)
        try ledger.append(Array(records[4...6]))
        try ledger.appendLocal([
            StationEditDraft(station: 202_919, memo: "memo only 🚃"),
            StationEditDraft(station: 120_004, compDate: .notCompleted),
        ])
        try ledger.append([knowledgeMark])
        try ledger.sealActiveSegment()
    }
}
