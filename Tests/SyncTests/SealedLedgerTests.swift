import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import Testing

/// A ledger in sealed mode (Schemas/segment-format.md §6 `records`): the one segment engine
/// keeping an encrypted account's sealed records, with its rules for appends, footers,
/// checkpoints, torn tails and `verify` unchanged, and kept apart from plaintext ledgers.
@Suite("A ledger of sealed records")
struct SealedLedgerTests {
    static let key = DataKey.random(epoch: 1)

    /// `perDevice` sealed events of each of `devices` devices from `firstSeq`, their device names
    /// first, as a raw stream of sealed records.
    static func sealedStream(devices: ClosedRange<UInt64>, firstSeq: UInt64 = 1, perDevice: Int,
                             withNames: Bool = true) throws -> [UInt8] {
        var stream: [UInt8] = []
        for raw in devices {
            let device = DeviceID(rawValue: raw)
            let hlc = HybridTimestamp(milliseconds: 1_700_000_000_000, counter: 0)
            if withNames {
                stream += try RecordSealer.seal(RecordEncoder.bytes(of: .deviceName(DeviceNameRecord(device: device, hlc: hlc, name: "端末 \(raw)"))),
                                                with: key).recordBytes
            }
            for seq in firstSeq..<(firstSeq + UInt64(perDevice)) {
                let edit = StationEdit(id: EventID(device: device, seq: seq), hlc: hlc, station: UInt32(seq), compDate: .day(2013, 9, 1),
                                       memo: seq % 3 == 0 ? "memo \(seq)" : nil, origin: .user)
                stream += try RecordSealer.seal(RecordEncoder.bytes(of: .stationEdit(edit)), with: key).recordBytes
            }
        }
        return stream
    }

    static func storedRecords(_ ledger: Ledger, from position: UInt64 = 0) throws -> [[UInt8]] {
        var found: [[UInt8]] = []
        try ledger.forEachSealedRecord(from: position) { view, index in
            #expect(index == position + UInt64(found.count))
            found.append(Array(view.bytes))
            return .continue
        }
        return found
    }

    static func split(_ stream: [UInt8]) throws -> [[UInt8]] {
        var records: [[UInt8]] = []
        try stream.withUnsafeBytes { raw in try SealedRecordStream.forEach(in: raw) { records.append(Array($0.bytes)) } }
        return records
    }

    @Test("Appended sealed records read back byte for byte, across sealed segments, after reopening")
    func roundTrip() throws {
        let dir = try TemporaryDirectory("sealed-ledger")
        let path = dir.sub("user")
        let first = try Self.sealedStream(devices: 1...3, perDevice: 40)
        let later = try (0..<3).map { try Self.sealedStream(devices: 1...3, firstSeq: 41 + 10 * UInt64($0), perDevice: 10, withNames: false) }
        do {
            let ledger = try Ledger.createSealed(directory: path, ownerName: "server")
            ledger.rollThreshold = 4_000
            #expect(ledger.recordCount == 0, "a sealed ledger has no record of its own")
            try first.withUnsafeBytes { try ledger.appendSealed($0) }
            for batch in later { try batch.withUnsafeBytes { try ledger.appendSealed($0) } }
            #expect(ledger.segments.count >= 3, "small segments, so that footers are written and read")
            ledger.close()
        }
        let ledger = try Ledger.open(directory: path, records: .sealed)
        defer { ledger.close() }
        let expected = try Self.split(first) + later.flatMap(Self.split)
        #expect(try Self.storedRecords(ledger) == expected)
        #expect(try Self.storedRecords(ledger, from: 100) == Array(expected[100...]))
        #expect(ledger.versionVector == [DeviceID(rawValue: 1): 70, DeviceID(rawValue: 2): 70, DeviceID(rawValue: 3): 70])
        #expect(ledger.deviceNames.isEmpty, "names are sealed: the ledger knows none")
        #expect(ledger.recordCount == UInt64(expected.count))
        let report = try ledger.verify()
        #expect(report.records == UInt64(expected.count))
        #expect(report.events == 210)
        #expect(report.sealedSegments >= 2)
    }

    @Test("A sealed event that does not continue its device is refused, and nothing is written")
    func seqContinuity() throws {
        let dir = try TemporaryDirectory("sealed-gap")
        let ledger = try Ledger.createSealed(directory: dir.sub("user"), ownerName: "server")
        defer { ledger.close() }
        try Self.sealedStream(devices: 1...1, perDevice: 5).withUnsafeBytes { try ledger.appendSealed($0) }
        let size = ledger.bytesOnDisk
        let gap = try Self.sealedStream(devices: 1...1, firstSeq: 7, perDevice: 2, withNames: false)
        let error = #expect(throws: LedgerError.self) { try gap.withUnsafeBytes { try ledger.appendSealed($0) } }
        #expect(error?.category == .conflict)
        #expect(ledger.bytesOnDisk == size)
        #expect(ledger.versionVector[DeviceID(rawValue: 1)] == 5)
    }

    @Test("A torn tail of a sealed ledger is cut back to its last acknowledged batch")
    func tornTail() throws {
        let dir = try TemporaryDirectory("sealed-torn")
        let path = dir.sub("user")
        let kept = try Self.sealedStream(devices: 1...2, perDevice: 20)
        do {
            let ledger = try Ledger.createSealed(directory: path, ownerName: "server")
            try kept.withUnsafeBytes { try ledger.appendSealed($0) }
            ledger.close()
        }
        // A batch whose write was torn: bytes past the watermark that do not form a frame.
        let segment = Path.join(Path.join(path, Ledger.segmentsDirectory), SegmentInfo.fileName(1))
        let handle = try #require(FileHandle(forWritingAtPath: segment))
        handle.seekToEndOfFile()
        handle.write(Data([0x04, 0x22, 0x4D, 0x18, 0x64, 0x40, 0xA7, 0x11, 0x22]))
        try handle.close()
        let ledger = try Ledger.open(directory: path, records: .sealed)
        defer { ledger.close() }
        #expect(ledger.recovery != nil, "the tear was found and cut")
        #expect(try Self.storedRecords(ledger) == Self.split(kept))
        #expect(try ledger.verify().records == UInt64(try Self.split(kept).count))
    }

    @Test("Flipped bytes inside an acknowledged sealed frame are damage, never a tear")
    func bitRot() throws {
        let dir = try TemporaryDirectory("sealed-rot")
        let path = dir.sub("user")
        do {
            let ledger = try Ledger.createSealed(directory: path, ownerName: "server")
            try Self.sealedStream(devices: 1...2, perDevice: 20).withUnsafeBytes { try ledger.appendSealed($0) }
            ledger.close()
        }
        let segment = Path.join(Path.join(path, Ledger.segmentsDirectory), SegmentInfo.fileName(1))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
        bytes[bytes.count - 20] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: segment))
        try? FileManager.default.removeItem(atPath: Path.join(Path.join(path, Ledger.segmentsDirectory), SegmentInfo.fileName(1) + ".summary"))
        let error = #expect(throws: LedgerError.self) { _ = try Ledger.open(directory: path, records: .sealed) }
        #expect(error?.category == .corruption)
    }

    @Test("Sealed and plaintext ledgers are kept apart, and an older build refuses a sealed one")
    func keptApart() throws {
        let dir = try TemporaryDirectory("sealed-apart")
        let sealedPath = dir.sub("sealed")
        let plainPath = dir.sub("plain")
        do {
            let sealed = try Ledger.createSealed(directory: sealedPath, ownerName: "server")
            try Self.sealedStream(devices: 1...1, perDevice: 3).withUnsafeBytes { try sealed.appendSealed($0) }
            let plain = EncodedRecords([.deviceName(DeviceNameRecord(device: DeviceID(rawValue: 9), hlc: .zero, name: "x"))])
            let refused = #expect(throws: LedgerError.self) { try sealed.append(plain) }
            #expect(refused?.category == .usage)
            #expect(throws: LedgerError.self) { try sealed.forEachRecord { _, _ in } }
            sealed.close()
            let device = try Ledger.create(directory: plainPath, deviceName: "phone")
            let sealedBytes = try Self.sealedStream(devices: 1...1, perDevice: 1)
            #expect(throws: LedgerError.self) { try sealedBytes.withUnsafeBytes { try device.appendSealed($0) } }
            #expect(throws: LedgerError.self) { try device.forEachSealedRecord { _, _ in .continue } }
            device.close()
        }
        let asPlain = #expect(throws: LedgerError.self) { _ = try Ledger.open(directory: sealedPath) }
        #expect(asPlain?.message.contains("sealed") == true)
        #expect(throws: LedgerError.self) { _ = try Ledger.open(directory: plainPath, records: .sealed) }
        #expect(throws: LedgerError.self) { _ = try LedgerRepair.begin(directory: sealedPath) }

        // What a build before the field reads: the same file without `records`. Its checksum
        // covers the field, so the directory is refused instead of read as plaintext.
        let metadataPath = Path.join(sealedPath, LedgerMetadata.fileName)
        let text = try String(contentsOfFile: metadataPath, encoding: .utf8)
        #expect(text.contains("\"records\" : \"sealed\"") || text.contains("\"records\":\"sealed\""))
        let stripped = text.split(separator: "\n").filter { !$0.contains("\"records\"") }.joined(separator: "\n")
        let older = #expect(throws: LedgerError.self) { _ = try LedgerMetadata.decode(Array(stripped.utf8), path: metadataPath) }
        #expect(older?.category == .corruption)
    }
}
