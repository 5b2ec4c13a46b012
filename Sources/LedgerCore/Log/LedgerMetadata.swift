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
    /// The first segment from which every segment was created with its watermark
    /// (`NNNNNNNN.seg.durable`) before any frame: for those, a missing or unreadable watermark is
    /// damage, never a reason to judge the tail by its frames (Schemas/segment-format.md §5b, §6).
    /// `nil` in a ledger written before this field; a writer records it when it next creates a
    /// segment.
    package var watermarkedFrom: UInt32?
    /// What the segments hold: `nil` (the field absent) for plaintext records, `.sealed` for an
    /// end-to-end encrypted account's sealed records (segment-format.md §3.6 and §6). Inside the
    /// checksum, so that a build that does not know the field refuses the directory instead of
    /// reading sealed records as plaintext ones.
    package var records: LedgerRecords?
    /// Only in the file: CRC-32C of the other fields (`checksumText`) as 8 hex digits, so that bit
    /// rot cannot silently change the ledger's or the device's identity. Checked and cleared when
    /// decoding; a file without one (written before it existed) is accepted.
    package var checksum: String?

    enum CodingKeys: String, CodingKey {
        case format
        case ledgerID = "ledger_id"
        case device
        case deviceName = "device_name"
        case createdAt = "created_at"
        case watermarkedFrom = "watermarked_from"
        case records
        case checksum
    }

    package init(format: Int = LedgerMetadata.currentFormat, ledgerID: String, device: String,
                 deviceName: String, createdAt: String, watermarkedFrom: UInt32? = nil) {
        (self.format, self.watermarkedFrom, self.ledgerID, self.device) = (format, watermarkedFrom, ledgerID, device)
        (self.deviceName, self.createdAt) = (deviceName, createdAt)
    }

    package var deviceID: DeviceID { DeviceID(hex: device)! }

    /// Whether segment `number` must have a sound watermark: it was created after the watermark
    /// file, so none can be missing but by damage (Schemas/segment-format.md §5b).
    package func requiresWatermark(_ number: UInt32) -> Bool {
        watermarkedFrom.map { number >= $0 } ?? false
    }

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
        var stamped = self
        stamped.checksum = computedChecksum
        return ((try? JSONEncoding.file.encode(stamped)) ?? []) + [0x0A]
    }

    /// The fields the checksum covers, one per line, in a fixed order; `watermarked_from` only
    /// when present, so that a file written before it keeps its checksum (and a build that does
    /// not know the field refuses a file that has it, rather than drop the promise it makes).
    private var checksumText: String {
        "\(format)\n\(ledgerID)\n\(device)\n\(deviceName)\n\(createdAt)" + (watermarkedFrom.map { "\n\($0)" } ?? "")
            + (records.map { "\nrecords=\($0.rawValue)" } ?? "")
    }

    /// What the segments hold (an absent field is plaintext).
    package var recordForm: LedgerRecords { records ?? .plain }

    private var computedChecksum: String {
        let digits = String(CRC32C.checksum(Array(checksumText.utf8)), radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    package static func decode(_ bytes: [UInt8], path: String) throws -> LedgerMetadata {
        guard var metadata = try? JSONDecoder().decode(LedgerMetadata.self, from: Data(bytes)),
              metadata.ledgerID.count == 32, DeviceID(hex: metadata.device) != nil
        else { throw LedgerError(.corruption, "the ledger description is unreadable", file: path) }
        guard metadata.format == currentFormat else {
            throw LedgerError(.corruption, "ledger format \(metadata.format) is not supported by this build", file: path)
        }
        if let checksum = metadata.checksum {
            guard checksum == metadata.computedChecksum else {
                throw LedgerError(.corruption, "the ledger description fails its checksum", file: path)
            }
            metadata.checksum = nil
        }
        return metadata
    }

    /// What the records of the ledger at `directory` are (its `ledger.json`'s `records`), read
    /// without opening it; nil when the directory holds no ledger. Throws as `decode` for an
    /// unreadable or damaged description.
    package static func recordForm(ofLedgerAt directory: String, fileSystem: any FileSystem) throws -> LedgerRecords? {
        let path = Path.join(directory, fileName)
        guard fileSystem.fileExists(path) else { return nil }
        return try decode(try fileSystem.readFile(path), path: path).recordForm
    }

    /// Reads `ledger.json` of an existing ledger, then takes its lock: the first step of every
    /// way of opening one (a missing file means there is no ledger, not damage). A ledger whose
    /// records are not of the form `records` is refused before anything else is read.
    package static func readAndLock(
        directory: String, fileSystem: any FileSystem, useLock: Bool, request: LedgerLock.Request = .exclusive,
        records: LedgerRecords = .plain
    ) throws -> (metadata: LedgerMetadata, lock: LedgerLock?) {
        let path = Path.join(directory, fileName)
        guard fileSystem.fileExists(path) else {
            throw LedgerError(.missingLedger, "no ledger at \(directory) (create one with 'oritsubushi init')")
        }
        let metadata = try decode(try fileSystem.readFile(path), path: path)
        guard metadata.recordForm == records else { throw records.mismatch(directory: directory) }
        return (metadata, useLock ? try fileSystem.lockDirectory(directory, request: request) : nil)
    }
}
