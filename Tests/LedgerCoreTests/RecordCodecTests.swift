import Testing
@testable import LedgerCore

@Suite struct RecordCodecTests {
    static let device = DeviceID(rawValue: 0x0123_4567_89AB_CDEF)

    static let memos: [String?] = [
        nil, "", "東京駅", "line one\nline two", "tab\there", "back\\slash \\n not a newline",
        "emoji 🚃🚉 and 降りつぶし", "quote \" and ' and \r carriage", String(repeating: "a", count: 4096),
        String(repeating: "駅", count: 1365),  // 4095 bytes
    ]

    @Test(arguments: memos)
    func stationEditRoundTrips(memo: String?) throws {
        for compDate in [nil, CompletionDate.notCompleted, .unknown, .year(2013), .month(2013, 9), .day(2000, 2, 29)] {
            guard compDate != nil || memo != nil else { continue }
            for origin in EventOrigin.allCases {
                let edit = StationEdit(
                    id: EventID(device: Self.device, seq: 0xFFFF_FFFF_FF), hlc: HybridTimestamp(milliseconds: 1_700_000_000_000, counter: 65535),
                    station: 306_100, compDate: compDate, memo: memo, origin: origin)
                #expect(try decodeAll([.stationEdit(edit)]) == [.stationEdit(edit)])
            }
        }
    }

    @Test func otherKindsRoundTrip() throws {
        let records: [LedgerRecord] = [
            .catalogVersion(CatalogVersionEvent(id: EventID(device: Self.device, seq: 7), hlc: HybridTimestamp(rawValue: 42), version: 176)),
            .deviceName(DeviceNameRecord(device: Self.device, hlc: HybridTimestamp(rawValue: 43), name: "ノートPC")),
            .deviceName(DeviceNameRecord(device: Self.device, hlc: HybridTimestamp(rawValue: 44), name: "")),
        ]
        #expect(try decodeAll(records) == records)
    }

    @Test func encodedSizeMatchesEncoding() {
        for memo in Self.memos.compactMap({ $0 }) {
            let record = LedgerRecord.stationEdit(StationEdit(
                id: EventID(device: Self.device, seq: 1), hlc: .zero, station: 1, compDate: nil, memo: memo, origin: .user))
            var encoder = RecordEncoder()
            encoder.append(record)
            #expect(encoder.bytes.count == RecordEncoder.encodedSize(of: record))
        }
    }

    @Test func fixedWidthLayoutIsAsDocumented() {
        var encoder = RecordEncoder()
        encoder.append(StationEdit(id: EventID(device: DeviceID(rawValue: 0x1122334455667788), seq: 3),
                                   hlc: HybridTimestamp(rawValue: 0x0102030405060708), station: 202_919,
                                   compDate: .day(2013, 9, 1), memo: "A", origin: .import))
        let expected: [UInt8] = [
            1, 0x03, 35, 0,  // kind, flags (date + memo), body length 34 + 1
            0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  // device
            3, 0, 0, 0, 0, 0, 0, 0,  // seq
            0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,  // hlc
            0xA7, 0x18, 0x03, 0x00,  // station 202919
            0x55, 0x2C, 0x33, 0x01,  // comp_date 20130901
            1, 0,  // origin import, reserved
            0x41,  // memo "A"
        ]
        #expect(encoder.bytes == expected)
    }

    @Test(arguments: [
        ([UInt8]([9, 0, 0, 0]), "unknown record kind"),
        ([1, 0x01, 40, 0], "runs past"),
        ([1], "cut off"),
    ])
    func malformedStreamsAreRejected(bytes: [UInt8], reason: String) {
        let error = #expect(throws: RecordStream.Fault.self) {
            try bytes.withUnsafeBytes { try RecordStream.forEach(in: $0) { _ in } }
        }
        #expect(error?.reason.contains(reason) == true)
    }

    @Test func invalidFieldsAreRejectedEvenWithValidFraming() {
        func edit(_ mutate: (inout [UInt8]) -> Void) -> [UInt8] {
            var encoder = RecordEncoder()
            encoder.append(StationEdit(id: EventID(device: Self.device, seq: 1), hlc: .zero, station: 5,
                                       compDate: .year(2013), memo: "ok", origin: .user))
            var bytes = encoder.bytes
            mutate(&bytes)
            return bytes
        }
        let cases: [[UInt8]] = [
            edit { $0[32] = 0x0F; $0[33] = 0; $0[34] = 0; $0[35] = 0 },  // comp_date 15
            edit { $0[1] = 0 },  // no flags
            edit { $0[1] = 0x80 | 0x03 },  // unknown flag
            edit { $0[36] = 9 },  // unknown origin
            edit { $0[38] = 0xFF },  // memo not UTF-8
            edit { for i in 12..<20 { $0[i] = 0 } },  // seq 0
            edit { for i in 28..<32 { $0[i] = 0 } },  // station 0
        ]
        for bytes in cases {
            #expect(throws: RecordStream.Fault.self) {
                try bytes.withUnsafeBytes { try RecordStream.forEach(in: $0) { _ in } }
            }
        }
    }

    private func decodeAll(_ records: [LedgerRecord]) throws -> [LedgerRecord] {
        var encoder = RecordEncoder()
        for r in records { encoder.append(r) }
        var decoded: [LedgerRecord] = []
        try encoder.bytes.withUnsafeBytes { try RecordStream.forEach(in: $0) { decoded.append($0.record) } }
        return decoded
    }
}
