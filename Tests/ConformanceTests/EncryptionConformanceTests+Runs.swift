import LedgerCore
import LedgerSync
import Testing

/// The sealed runs of Conformance/encryption.jsonl (Schemas/encryption.md §3.5): `seal-run` cases
/// (the events of one run, `records`, one hex string per record, seal to exactly `stored`) and
/// `open-run` cases (`stored` opens to `records`, or is refused with `refused`, one case for each
/// refusal an opener of a run makes after the clear fields pass segment-format.md §3.6).
extension EncryptionConformanceTests {
    static let runDevice = DeviceID(rawValue: 0x8000_0000_0000_00b2)

    /// Events `first …` of `device`: station edits with and without dates and memos, a catalogue
    /// version and a knowledge mark, as `RecordEncoder` writes them.
    static func runEvents(device: DeviceID = runDevice, first: UInt64, count: Int) -> [[UInt8]] {
        (0..<count).map { index in
            let id = EventID(device: device, seq: first + UInt64(index))
            let hlc = HybridTimestamp(milliseconds: 1_764_000_000_000 + Int64(index) * 61_000, counter: UInt16(index % 3))
            let record: LedgerRecord = switch index % 6 {
            case 3: .catalogVersion(CatalogVersionEvent(id: id, hlc: hlc, version: 176))
            case 5: .knowledgeMark(KnowledgeMark(id: id, hlc: hlc, knowledge: [device: id.seq - 1]))
            default: .stationEdit(StationEdit(id: id, hlc: hlc, station: 1_130_105 + UInt32(index * 103),
                                              compDate: index % 2 == 0 ? .day(2013, 9, 1 + index % 28) : index % 4 == 1 ? nil : .unknown,
                                              memo: index % 4 == 1 ? "乗り換え \(index) 🚃" : nil, origin: .user))
            }
            return RecordEncoder.bytes(of: record)
        }
    }

    /// A run sealed by hand, for the refusals a sealer never writes: `plaintext` under the clear
    /// fields, with the synthetic nonce unless `nonce` is given.
    static func forgedRun(device: DeviceID = runDevice, first: UInt64, last: UInt64, plaintext: [UInt8], key: DataKey,
                          nonce: [UInt8]? = nil) throws -> SealedRecord {
        try forged(SealedRecord(kind: .run, device: device, firstSeq: first, seq: last, epoch: key.epoch, nonce: [], ciphertext: []),
                   plaintext: plaintext, key: key, nonce: nonce)
    }

    /// The block of `records` as a run seals it, padded to 32 with `padding` more zero bytes.
    static func runPlaintext(_ records: [[UInt8]], padding: Int = 0) -> [UInt8] {
        var block: [UInt8] = []
        records.flatMap { $0 }.withUnsafeBytes { RunBlockCodec().encode($0, appendingTo: &block) }
        return padded(block) + [UInt8](repeating: 0, count: padding)
    }

    static func runCases() throws -> [Case] {
        let sealer = RunSealer()
        func seal(_ records: [[UInt8]], device: DeviceID = runDevice, first: UInt64, key: DataKey) throws -> SealedRecord {
            try records.flatMap { $0 }.withUnsafeBytes {
                try sealer.seal($0, device: device, first: first, last: first + UInt64(records.count) - 1, with: key)
            }
        }
        var cases: [Case] = []
        let runs: [(String, [[UInt8]], DeviceID, UInt64)] = [
            ("a run of 12 events of every kind", runEvents(first: 10, count: 12), runDevice, 10),
            ("a run of 2 station edits", Array(runEvents(first: 1, count: 3).prefix(2)), runDevice, 1),
            ("a run above 2^53", runEvents(device: DeviceID(rawValue: 0xffff_ffff_ffff_fffe), first: 9_007_199_254_740_993, count: 4),
             DeviceID(rawValue: 0xffff_ffff_ffff_fffe), 9_007_199_254_740_993),
        ]
        for (label, records, device, first) in runs {
            for key in [keyA, keyB] {
                let sealed = try seal(records, device: device, first: first, key: key)
                let opened = try sealer.open(sealed, with: key)
                #expect(opened == records.flatMap { $0 }, "\(label): opens to its events")
                cases.append(Case(case: "seal-run: \(label), epoch \(key.epoch)", op: "seal-run", key: hex(key.bytes), epoch: key.epoch,
                                  stored: hex(sealed.recordBytes), records: records.map { hex($0) }))
                cases.append(Case(case: "open-run: \(label), epoch \(key.epoch)", op: "open-run", key: hex(key.bytes), epoch: key.epoch,
                                  stored: hex(sealed.recordBytes), records: records.map { hex($0) }))
            }
        }
        let events = runEvents(first: 10, count: 6)
        let good = try seal(events, first: 10, key: keyA)
        func refusal(_ label: String, _ sealed: SealedRecord, key: DataKey = keyA) -> Case {
            let reason: String
            do {
                _ = try sealer.open(sealed, with: key)
                reason = "none"
            } catch {
                reason = error.reason
            }
            return Case(case: "open-run refuses \(label)", op: "open-run", key: hex(key.bytes), epoch: key.epoch, refused: reason,
                        stored: hex(sealed.recordBytes))
        }
        var flipped = good
        flipped.ciphertext[7] ^= 0x04
        var otherFirst = good
        otherFirst.firstSeq = 11
        var otherLast = good
        otherLast.seq = 16
        var nonzeroPadding = runPlaintext(events)
        nonzeroPadding[nonzeroPadding.count - 1] = 1
        let name = RecordEncoder.bytes(of: .deviceName(DeviceNameRecord(device: runDevice, hlc: HybridTimestamp(milliseconds: 1_764_000_000_000,
                                                                                                             counter: 0), name: "Pixel")))
        var garbage = runPlaintext(events)
        garbage[14] = 1  // the block header's reserved field
        let otherDevice = runEvents(device: DeviceID(rawValue: 0xa1), first: 10, count: 6)
        let refusals = [
            refusal("a flipped ciphertext bit", flipped),
            refusal("a first seq changed in the clear", otherFirst),
            refusal("a last seq changed in the clear", otherLast),
            refusal("another epoch's key", good, key: keyB),
            refusal("a nonce that is not the content's",
                    try forgedRun(first: 10, last: 15, plaintext: runPlaintext(events), key: keyA, nonce: Array(good.nonce.reversed()))),
            refusal("32 more bytes of padding", try forgedRun(first: 10, last: 15, plaintext: runPlaintext(events, padding: 32), key: keyA)),
            refusal("a padding byte that is not zero", try forgedRun(first: 10, last: 15, plaintext: nonzeroPadding, key: keyA)),
            refusal("a block that does not decode", try forgedRun(first: 10, last: 15, plaintext: garbage, key: keyA)),
            refusal("a device name inside", try forgedRun(first: 10, last: 14, plaintext: runPlaintext(Array(events.prefix(5)) + [name]),
                                                            key: keyA)),
            refusal("seqs other than its clear ones", try forgedRun(first: 11, last: 16, plaintext: runPlaintext(events), key: keyA)),
            refusal("fewer events than its clear seqs", try forgedRun(first: 10, last: 16, plaintext: runPlaintext(events), key: keyA)),
            refusal("another device's events", try forgedRun(first: 10, last: 15, plaintext: runPlaintext(otherDevice), key: keyA)),
        ]
        #expect(refusals.map(\.refused) == ["unauthentic", "unauthentic", "unauthentic", "unauthentic", "noncanonical", "padding", "padding",
                                            "record", "kind", "identity", "identity", "identity"])
        return cases + refusals
    }

    @Test("a run seals to the same bytes as often as it is sealed, and a reader of sealed records reads its stored form")
    func runStoredForm() throws {
        let events = Self.runEvents(first: 10, count: 12)
        let sealer = RunSealer()
        let first = try events.flatMap { $0 }.withUnsafeBytes { try sealer.seal($0, device: Self.runDevice, first: 10, last: 21, with: Self.keyA) }
        let again = try events.flatMap { $0 }.withUnsafeBytes { try RunSealer().seal($0, device: Self.runDevice, first: 10, last: 21, with: Self.keyA) }
        #expect(first == again)
        var seen: [(UInt64, UInt64, UInt64)] = []
        try first.recordBytes.withUnsafeBytes { raw in
            try SealedRecordStream.forEach(in: raw) { seen.append(($0.firstSeq, $0.seq, $0.eventCount)) }
        }
        #expect(seen.count == 1 && seen[0] == (10, 21, 12))
    }
}
