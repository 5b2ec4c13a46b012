import LedgerCore

/// What the `FuzzSegment` libFuzzer harness does with one input, kept here so that every input
/// it ever crashed on replays as a regression test under `swift test`.
///
/// An input that starts with the segment header's magic is a segment file (its format version is
/// kept, so both formats are reached); one that starts with `ORB2` is a format-2 block stream
/// (what `lz4 -dc` prints for a format-2 segment); anything else is a raw record stream (what it
/// prints for format 1). Streams are wrapped into a valid frame and segment of their format so
/// that the decoders are reached through the whole read path despite the checksums. The valid
/// records of a raw stream are also encoded as format-2 blocks, which must decode to them. Each
/// input goes through the pure decoders and then, if it holds a sealed footer or a frame that
/// decodes, as segment 1 of a real (in-memory) ledger through open/recovery, `forEachRecord`,
/// `verify`, an append and a reopen.
///
/// The harness crashes (so libFuzzer reports it) when a decoder traps, when anything throws an
/// error other than `LedgerError`, when a record handed out does not re-encode to its own
/// bytes, when blocks do not decode to the records they encode, or when a ledger that opened
/// and accepted an append cannot be reopened with it.
package final class SegmentFuzzing {
    package static let ledgerDirectory = "/fuzz"
    private let base: CrashableFileSystem
    private let ledgerID: [UInt8]
    private let codec = SegmentCodecProbe()
    private let clock = FixedClock(milliseconds: 1_700_000_000_000)
    package var segmentPath: String { Path.join(Path.join(Self.ledgerDirectory, "segments"), "00000001.seg") }

    package init() {
        base = CrashableFileSystem()
        do {
            let ledger = try Ledger.create(directory: Self.ledgerDirectory, deviceName: "fuzz", fileSystem: base,
                                           clock: clock, useLock: false)
            ledgerID = ledger.metadata.ledgerIDBytes
            ledger.close()
        } catch {
            preconditionFailure("cannot create the fuzzing ledger: \(error)")
        }
    }

    /// Runs one input. Returns the number of records that were read back from the ledger.
    @discardableResult
    package func run(_ input: UnsafeRawBufferPointer) -> Int {
        exerciseDecoders(input)
        let segment: [UInt8]
        let content = UnsafeRawBufferPointer(rebasing: input.prefix(LZ4Frame.maximumContentSize))
        if input.count >= 4, input.loadLE(UInt32.self, at: 0) == SegmentHeader.skippableMagic {
            segment = fixedUpHeader(Array(input))
        } else if SegmentCodecProbe.startsWithBlocks(input) {
            segment = wrapped(content, format: 2)
        } else {
            checkBlockRoundTrip(content)
            segment = wrapped(content, format: 1)
        }
        // A ledger costs milliseconds (LZ4F allocates its 4 MiB block buffers per context), so
        // only inputs that get somewhere go through one: a sealed footer, or a frame that decodes.
        guard worthALedger(segment) else { return 0 }
        return exerciseLedger(segment)
    }

    private func worthALedger(_ segment: [UInt8]) -> Bool {
        segment.withUnsafeBytes { bytes in
            if SegmentCodecProbe.endsInFooter(bytes) { return true }
            let frames = try? reader(.salvage).read(bytes, summarize: true).summary.frameCount
            return (frames ?? 0) > 0
        }
    }

    private func reader(_ policy: SegmentReader.Policy) -> SegmentReader {
        codec.reader(path: "input.seg", policy: policy,
                     expectation: .init(number: 1, ledgerID: ledgerID, firstRecordPosition: 0, mustBeSealed: false))
    }

    package func run(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { run($0) }
    }

    private func exerciseDecoders(_ input: UnsafeRawBufferPointer) {
        _ = SegmentHeader.decode(input)
        _ = LZ4Frame.extent(of: input)
        for policy in [SegmentReader.Policy.strict, .tolerateTornTail, .salvage] {
            expectLedgerErrors {
                _ = try reader(policy).read(input, summarize: true) { view, _ in
                    Self.touch(view)
                    return .continue
                }
            }
        }
        try? RecordStream.forEach(in: input) { Self.touch($0) }
        if let records = codec.decodeFooterAndBlocks(input) {
            try? RecordStream.forEach(in: records) { Self.touch($0) }
        }
    }

    /// The valid records at the start of a raw stream, encoded as format-2 blocks, must decode
    /// to exactly their bytes.
    private func checkBlockRoundTrip(_ stream: UnsafeRawBufferPointer) {
        var valid = 0
        try? RecordStream.forEach(in: stream) { view in valid += view.length }
        guard valid > 0 else { return }
        let records = UnsafeRawBufferPointer(rebasing: stream.prefix(valid))
        FuzzCheck.require(codec.blocksRoundTrip(records), "format-2 blocks do not decode to the records they encode")
    }

    /// The input with the ledger's id, segment number 1, position 0 and a correct checksum put
    /// into its header, so that mutations reach the frames behind it.
    private func fixedUpHeader(_ input: [UInt8]) -> [UInt8] {
        guard input.count >= SegmentHeader.frameSize else { return input }
        var bytes = input
        let header = SegmentHeader(segmentNumber: 1, ledgerID: ledgerID, firstRecordPosition: 0).encoded()
        // Keep the fuzzed magic, length and version fields; replace identity and checksum.
        bytes.replaceSubrange(20..<48, with: header[20..<48])
        let crc = CRC32C.checksum(Array(bytes[8..<48]))
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(48..<52, with: $0) }
        return bytes
    }

    private func wrapped(_ content: UnsafeRawBufferPointer, format: UInt16) -> [UInt8] {
        var bytes = SegmentHeader(segmentNumber: 1, ledgerID: ledgerID, firstRecordPosition: 0, formatVersion: format).encoded()
        LZ4Frame.compress(content, appendingTo: &bytes)
        return bytes
    }

    private func exerciseLedger(_ segment: [UInt8]) -> Int {
        let fileSystem = base.clone()
        fileSystem.setContents(segmentPath, segment)
        // The input was never appended, so no watermark vouches for it: its frames alone decide.
        try? WatermarkRewind.rewind(segmentPath, to: nil, fileSystem: fileSystem)
        var read = 0
        expectLedgerErrors {
            let ledger = try Ledger.open(directory: Self.ledgerDirectory, fileSystem: fileSystem, clock: clock, useLock: false)
            var records: [LedgerRecord] = []
            let readAll = (try? ledger.forEachRecord { view, _ in
                Self.touch(view)
                Self.checkRoundTrip(view)
                records.append(view.record)
            }) != nil
            read = records.count
            _ = try? ledger.verify()
            ledger.rollThreshold = 1 << 12
            guard readAll, (try? ledger.appendLocal([StationEditDraft(station: 1, compDate: .unknown)])) != nil else { return }
            ledger.close()
            // What opened cleanly and took an append must open again, with that append.
            do {
                let reopened = try Ledger.open(directory: Self.ledgerDirectory, fileSystem: fileSystem, clock: clock, useLock: false)
                let again = try reopened.allRecords()
                FuzzCheck.require(again.count == records.count + 1 && Array(again.prefix(records.count)) == records,
                                  "the reopened ledger does not hold the same records plus the append")
            } catch {
                FuzzCheck.fail("a ledger that took an append cannot be reopened: \(error)")
                return
            }
        }
        return read
    }

    private func expectLedgerErrors(_ body: () throws -> Void) {
        do { try body() } catch is LedgerError {} catch {
            FuzzCheck.fail("an error that is not a LedgerError escaped: \(type(of: error)) \(error)")
            return
        }
    }

    /// Reads every field, so that a view that lies about its length faults under ASan.
    private static func touch(_ view: RecordView) {
        var sink = UInt64(view.length) ^ UInt64(view.flags)
        sink ^= view.device.rawValue ^ view.seq ^ view.hlc.rawValue
        switch view.kind {
        case .stationEdit:
            sink ^= UInt64(view.station) ^ UInt64(view.compDateCode) ^ UInt64(view.origin.rawValue)
            sink ^= UInt64(view.memo?.utf8.count ?? 0)
        case .catalogVersion: sink ^= UInt64(view.catalogVersion)
        case .deviceName: sink ^= UInt64(view.deviceName.utf8.count)
        default: sink ^= UInt64(view.kind.rawValue)
        }
        withExtendedLifetime(sink) {}
    }

    /// A record handed out must be exactly what encoding its materialised value gives.
    private static func checkRoundTrip(_ view: RecordView) {
        var encoder = RecordEncoder()
        encoder.append(view.record)
        let original = UnsafeRawBufferPointer(start: view.base, count: view.length)
        FuzzCheck.require(encoder.bytes.elementsEqual(original), "record \(view.record) does not re-encode to its bytes")
    }
}
