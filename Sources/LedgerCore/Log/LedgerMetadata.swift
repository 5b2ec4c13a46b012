import Foundation

/// `ledger.json`: the ledger's identity and the local device, written once at `init`
/// (Schemas/segment-format.md §6).
package struct LedgerMetadata: Codable, Equatable, Sendable {
    package static let fileName = "ledger.json"
    package static let currentFormat = 1

    package var format: Int
    /// 32 hex digits.
    package var ledgerID: String
    package var device: String
    package var deviceName: String
    package var createdAt: String

    enum CodingKeys: String, CodingKey {
        case format
        case ledgerID = "ledger_id"
        case device
        case deviceName = "device_name"
        case createdAt = "created_at"
    }

    package var deviceID: DeviceID { DeviceID(hex: device)! }

    package var ledgerIDBytes: [UInt8] {
        var bytes: [UInt8] = []
        var chars = ledgerID.makeIterator()
        while let high = chars.next(), let low = chars.next() {
            bytes.append(UInt8(String([high, low]), radix: 16) ?? 0)
        }
        return bytes
    }

    package static func new(deviceName: String, clock: any WallClock) -> LedgerMetadata {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return LedgerMetadata(
            format: currentFormat, ledgerID: id, device: DeviceID.random().description,
            deviceName: deviceName, createdAt: ISO8601.format(milliseconds: clock.nowMilliseconds()))
    }

    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }

    package static func decode(_ bytes: [UInt8], path: String) throws -> LedgerMetadata {
        guard let metadata = try? JSONDecoder().decode(LedgerMetadata.self, from: Data(bytes)),
              metadata.ledgerID.count == 32, DeviceID(hex: metadata.device) != nil
        else { throw LedgerError(.corruption, "the ledger description is unreadable", file: path) }
        guard metadata.format == currentFormat else {
            throw LedgerError(.corruption, "ledger format \(metadata.format) is not supported by this build", file: path)
        }
        return metadata
    }
}
