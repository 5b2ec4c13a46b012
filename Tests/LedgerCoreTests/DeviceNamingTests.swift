import LedgerTestSupport
import Testing
@testable import LedgerCore

/// `Ledger.device(named:)`, behind `replay --device`: an id in either case, or a name exactly one
/// device's name record gives.
@Suite struct DeviceNamingTests {
    @Test func namesAndIdsResolveAndAmbiguityIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Ledger.create(directory: dir.sub("l"), deviceName: "phone", clock: FixedClock(milliseconds: 1_700_000_000_000))
        defer { ledger.close() }
        let tablet = DeviceID(rawValue: 0xB2), other = DeviceID(rawValue: 0xC3)
        try ledger.append([
            .deviceName(DeviceNameRecord(device: tablet, hlc: HybridTimestamp(milliseconds: 1_600_000_000_000), name: "タブレット")),
            .deviceName(DeviceNameRecord(device: other, hlc: HybridTimestamp(milliseconds: 1_600_000_000_000), name: "phone")),
        ])
        #expect(try ledger.device(named: "タブレット") == tablet)
        #expect(try ledger.device(named: "00000000000000B2") == tablet)
        #expect(try ledger.device(named: ledger.localDevice.description) == ledger.localDevice)
        let several = #expect(throws: LedgerError.self) { try ledger.device(named: "phone") }
        #expect(several?.category == .usage && several?.message == "2 devices are named 'phone'; give the id")
        let none = #expect(throws: LedgerError.self) { try ledger.device(named: "laptop") }
        #expect(none?.category == .usage && none?.message == "no device is named 'laptop' in this ledger")
    }
}
