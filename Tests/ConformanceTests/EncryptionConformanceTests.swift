import Crypto
import Foundation
import LedgerCore
import LedgerSync
import SyncClient
import Testing

/// Conformance/encryption.jsonl (Schemas/encryption.md, Schemas/conformance.md): the sealing of
/// every kind of record, each refusal of an opener, the key wraps, fingerprints and recovery kits,
/// computed by the Swift code from fixed keys; the app's tests (Tests/WebApp/encryption.test.mjs)
/// must compute the same bytes with WebCrypto.
@Suite("Conformance corpus: end-to-end encryption's bytes")
struct EncryptionConformanceTests {
    struct Sealed: Codable, Equatable {
        var kind: UInt8
        var device: String
        var seq: String
        var epoch: UInt32
        var nonce: String
        var ciphertext: String
    }

    struct Case: Encodable {
        var `case`: String
        var op: String
        var key: String?
        var epoch: UInt32?
        var record: String?
        var sealed: Sealed?
        var purpose: String?
        var link_secret: String?
        var next_key: String?
        var next_epoch: UInt32?
        var wrapping_key: String?
        var nonce: String?
        var wrapped: String?
        var fingerprint: String?
        var kit: String?
        var text: String?
        var refused: String?
        /// A sealed record's stored form (segment-format.md §3.6), in a seal case.
        var stored: String?
        /// Format-2 blocks (§2a) and the stored records they decode to, or the index of the
        /// record refused (`refused_at`) and why (`refused`).
        var blocks: String?
        var stream: String?
        var records: [String]?
        var refused_at: Int?
        /// A device name as an encrypted account's server keeps it (encryption.md §8, "Device
        /// names"), and the name it opens to (absent: it does not open).
        var sealed_name: String?
        var name: String?
    }

    static let keyA = DataKey(epoch: 1, bytes: (0..<32).map { UInt8($0) })!
    static let keyB = DataKey(epoch: 2, bytes: (0..<32).map { UInt8(0x20 + $0 * 7 % 256) })!

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func wire(_ sealed: SealedRecord) -> Sealed {
        Sealed(kind: sealed.kind.rawValue, device: String(format: "%016llx", sealed.device.rawValue), seq: String(sealed.seq),
               epoch: sealed.epoch, nonce: hex(sealed.nonce), ciphertext: hex(sealed.ciphertext))
    }

    /// A sealed record made by hand, for the refusals a sealer never writes: `plaintext` under
    /// the clear fields, with the synthetic nonce unless `nonce` is given.
    static func forged(_ kind: SealedRecord.Kind, device: UInt64, seq: UInt64, plaintext: [UInt8], key: DataKey,
                       nonce: [UInt8]? = nil) throws -> SealedRecord {
        try forged(SealedRecord(kind: kind, device: DeviceID(rawValue: device), seq: seq, epoch: key.epoch, nonce: [], ciphertext: []),
                   plaintext: plaintext, key: key, nonce: nonce)
    }

    /// `clear` sealed by hand over `plaintext` (a record's or a run's, §3.5): the sealer's own seal,
    /// or, with `nonce`, AES-GCM under a nonce that is not the content's.
    static func forged(_ clear: SealedRecord, plaintext: [UInt8], key: DataKey, nonce: [UInt8]?) throws -> SealedRecord {
        guard let nonce else { return RecordSealer.seal(padded: plaintext, as: clear, with: key) }
        var sealed = clear
        sealed.nonce = nonce
        let box = try AES.GCM.seal(plaintext, using: key.sealKey, nonce: AES.GCM.Nonce(data: nonce), authenticating: sealed.associatedData)
        sealed.ciphertext = Array(box.ciphertext) + Array(box.tag)
        return sealed
    }

    static func padded(_ record: [UInt8]) -> [UInt8] {
        record + [UInt8](repeating: 0, count: RecordSealer.paddedLength(record.count) - record.count)
    }

    static func records() -> [(String, LedgerRecord)] {
        let device = DeviceID(rawValue: 0x8000_0000_0000_00a1)
        let hlc = HybridTimestamp(milliseconds: 1_764_000_000_000, counter: 3)
        return [
            ("a station edit with a date", .stationEdit(StationEdit(id: EventID(device: device, seq: 1), hlc: hlc, station: 1_130_105,
                                                                    compDate: .day(2013, 9, 1), memo: nil, origin: .user))),
            ("a station edit with a memo", .stationEdit(StationEdit(id: EventID(device: device, seq: 2), hlc: hlc, station: 1_130_208,
                                                                    compDate: nil, memo: "新宿で乗り換え、改札外 🚃", origin: .user))),
            ("a station edit of 26 memo bytes, 64 bytes in all", .stationEdit(StationEdit(
                id: EventID(device: device, seq: 3), hlc: hlc, station: 1, compDate: .unknown, memo: String(repeating: "m", count: 26), origin: .import))),
            ("a seq above 2^53", .stationEdit(StationEdit(id: EventID(device: DeviceID(rawValue: 0xffff_ffff_ffff_fffe), seq: 9_007_199_254_740_993),
                                                         hlc: hlc, station: 4_294_967_295, compDate: .year(1990), memo: "", origin: .catalog))),
            ("a catalogue version", .catalogVersion(CatalogVersionEvent(id: EventID(device: device, seq: 4), hlc: hlc, version: 176))),
            ("a knowledge mark", .knowledgeMark(KnowledgeMark(id: EventID(device: device, seq: 5), hlc: hlc,
                                                               knowledge: [DeviceID(rawValue: 0xa1): 7, DeviceID(rawValue: 0x0020_0000_0000_0001): 900]))),
            ("a device name", .deviceName(DeviceNameRecord(device: device, hlc: hlc, name: "Pixel 8 はな"))),
        ]
    }

    static func sealingCases() throws -> [Case] {
        var cases: [Case] = []
        for (name, record) in records() {
            let bytes = RecordEncoder.bytes(of: record)
            for key in [keyA, keyB] {
                let sealed = try RecordSealer.seal(bytes, with: key)
                cases.append(Case(case: "seal: \(name), epoch \(key.epoch)", op: "seal", key: hex(key.bytes), epoch: key.epoch,
                                  record: hex(bytes), sealed: wire(sealed), stored: hex(sealed.recordBytes)))
                cases.append(Case(case: "open: \(name), epoch \(key.epoch)", op: "open", key: hex(key.bytes), epoch: key.epoch,
                                  record: hex(bytes), sealed: wire(sealed)))
            }
        }
        let edit = RecordEncoder.bytes(of: records()[0].1)
        let name = RecordEncoder.bytes(of: records()[6].1)
        let good = try RecordSealer.seal(edit, with: keyA)
        func refusal(_ label: String, _ sealed: SealedRecord, key: DataKey = keyA) throws -> Case {
            let reason: String
            do {
                _ = try RecordSealer.open(sealed, with: key)
                reason = "none"
            } catch {
                reason = error.reason
            }
            return Case(case: "open refuses \(label)", op: "open", key: hex(key.bytes), epoch: key.epoch, sealed: wire(sealed), refused: reason)
        }
        var flipped = good
        flipped.ciphertext[5] ^= 0x10
        var otherSeq = good
        otherSeq.seq = 2
        var otherEpoch = good
        otherEpoch.epoch = 2
        var cut = good
        cut.ciphertext.removeLast()
        var trailing = padded(edit)
        trailing[trailing.count - 1] = 1
        var wrongSeqInside = edit
        wrongSeqInside[12] = 9
        var badKind = padded(edit)
        badKind[0] = 9
        cases += [
            try refusal("a flipped ciphertext bit", flipped),
            try refusal("a seq changed in the clear", otherSeq),
            try refusal("another epoch in the clear", otherEpoch),
            try refusal("the key of another epoch", good, key: keyB),
            try refusal("a ciphertext one byte short", cut),
            try refusal("a nonce other than the synthetic one",
                        try forged(.event, device: 0x8000_0000_0000_00a1, seq: 1, plaintext: padded(edit), key: keyA, nonce: [UInt8](repeating: 7, count: 12))),
            try refusal("a non-zero byte in the padding", try forged(.event, device: 0x8000_0000_0000_00a1, seq: 1, plaintext: trailing, key: keyA)),
            try refusal("padding past the next multiple of 32 (a second sealed form)",
                        try forged(.event, device: 0x8000_0000_0000_00a1, seq: 1, plaintext: padded(edit) + [UInt8](repeating: 0, count: 32), key: keyA)),
            try refusal("a record that runs past the plaintext",
                        try forged(.event, device: 0x8000_0000_0000_00a1, seq: 1, plaintext: Array(edit.prefix(32)), key: keyA)),
            try refusal("a sealed record §3 refuses (kind 9)", try forged(.event, device: 0x8000_0000_0000_00a1, seq: 1, plaintext: badKind, key: keyA)),
            try refusal("a device name sealed as an event", try forged(.event, device: 0x8000_0000_0000_00a1, seq: 0, plaintext: padded(name), key: keyA)),
            try refusal("an event sealed as a name", try forged(.name, device: 0x8000_0000_0000_00a1, seq: 0, plaintext: padded(edit), key: keyA)),
            try refusal("a seq inside other than the clear one",
                        try forged(.event, device: 0x8000_0000_0000_00a1, seq: 1, plaintext: padded(wrongSeqInside), key: keyA)),
            try refusal("a device inside other than the clear one", try forged(.event, device: 0xa1, seq: 1, plaintext: padded(edit), key: keyA)),
        ]
        return cases
    }

    static func keyCases() throws -> [Case] {
        let secret = (0..<32).map { UInt8(0x40 + $0) }
        let deviceKey = (0..<32).map { UInt8(0xc0 ^ $0) }
        let nonce = (0..<12).map { UInt8(0x90 + $0) }
        func unwrapped(_ wrapped: [UInt8], _ wrappingKey: SymmetricKey, _ purpose: KeyWrap.Purpose) -> (DataKey?, String?) {
            do { return (try KeyWrap.unwrap(wrapped, under: wrappingKey, purpose: purpose), nil) } catch { return (nil, error.reason) }
        }
        var cases: [Case] = []
        let linkKey = try KeyWrap.linkKey(secret: secret)
        let link = KeyWrap.wrap(keyB, under: linkKey, purpose: .link, nonce: nonce)
        let chain = KeyWrap.wrap(keyA, under: keyB.chainKey, purpose: .chain, nonce: nonce)
        let stored = KeyWrap.wrap(keyA, under: SymmetricKey(data: deviceKey), purpose: .device, nonce: nonce)
        cases.append(Case(case: "wrap for a link", op: "wrap", key: hex(keyB.bytes), epoch: 2, purpose: "link",
                          link_secret: hex(secret), nonce: hex(nonce), wrapped: hex(link)))
        cases.append(Case(case: "wrap an epoch under the next one's chain key", op: "wrap", key: hex(keyA.bytes), epoch: 1, purpose: "chain",
                          next_key: hex(keyB.bytes), next_epoch: 2, nonce: hex(nonce), wrapped: hex(chain)))
        cases.append(Case(case: "wrap for a device's own storage", op: "wrap", key: hex(keyA.bytes), epoch: 1, purpose: "device",
                          wrapping_key: hex(deviceKey), nonce: hex(nonce), wrapped: hex(stored)))
        for (label, wrapped, purpose, source) in [
            ("a link's key", link, KeyWrap.Purpose.link, "link"), ("a link's key read as a chain key", link, .chain, "link"),
            ("a link's key cut short", Array(link.dropLast()), .link, "link"), ("a chain key", chain, .chain, "chain"),
            ("a device's stored key", stored, .device, "device"),
        ] {
            let wrappingKey: SymmetricKey = source == "link" ? linkKey : source == "chain" ? keyB.chainKey : SymmetricKey(data: deviceKey)
            let (key, refused) = unwrapped(wrapped, wrappingKey, purpose)
            cases.append(Case(case: "unwrap \(label)", op: "unwrap", key: key.map { hex($0.bytes) }, epoch: key?.epoch,
                              purpose: purpose == .link ? "link" : purpose == .chain ? "chain" : "device",
                              link_secret: source == "link" ? hex(secret) : nil, next_key: source == "chain" ? hex(keyB.bytes) : nil,
                              next_epoch: source == "chain" ? 2 : nil, wrapping_key: source == "device" ? hex(deviceKey) : nil,
                              wrapped: hex(wrapped), refused: refused))
        }
        let shortSecret: String
        do {
            _ = try KeyWrap.linkKey(secret: Array(secret.prefix(31)))
            shortSecret = "none"
        } catch {
            shortSecret = error.reason
        }
        cases.append(Case(case: "unwrap with a link secret of 31 bytes", op: "unwrap", purpose: "link",
                          link_secret: hex(secret.prefix(31)), wrapped: hex(link), refused: shortSecret))
        for key in [keyA, keyB] {
            cases.append(Case(case: "fingerprint of epoch \(key.epoch)", op: "fingerprint", key: hex(key.bytes), epoch: key.epoch,
                              fingerprint: key.fingerprint))
            cases.append(Case(case: "kit of epoch \(key.epoch)", op: "kit", key: hex(key.bytes), epoch: key.epoch,
                              kit: RecoveryKit.text(for: key)))
        }
        let kit = RecoveryKit.text(for: keyA)
        let lenient = kit.lowercased().replacingOccurrences(of: " ", with: "-")
            .replacingOccurrences(of: "0", with: "o").replacingOccurrences(of: "1", with: "l")
        var typo = Array(kit)
        typo[10] = typo[10] == "X" ? "Y" : "X"
        let pasted = RecoveryKit.words(of: kit).enumerated().map { $0.offset % 4 == 3 ? $0.element + "\r\n" : $0.element + "\t" }.joined()
        for (label, text) in [("as printed", kit), ("typed leniently", lenient), ("pasted with tabs and CRLF line ends", pasted), ("with a mistyped character", String(typo)),
                              ("a character short", String(kit.dropLast())), ("with a U", "U" + kit.dropFirst())] {
            do {
                let key = try RecoveryKit.key(from: text)
                cases.append(Case(case: "read a kit \(label)", op: "read-kit", key: hex(key.bytes), epoch: key.epoch, text: text))
            } catch {
                cases.append(Case(case: "read a kit \(label)", op: "read-kit", text: text, refused: error.reason))
            }
        }
        return cases
    }

    /// Sealed records in format-2 blocks, as an encrypted account's frames hold them: what they
    /// decode to, and the refusals of the stream they are read as (RecordStream, SealedRecordStream).
    static func blockCases() throws -> [Case] {
        let stored = try records().flatMap { _, record in
            try [keyA, keyB].map { try RecordSealer.seal(RecordEncoder.bytes(of: record), with: $0).recordBytes }
        }
        let probe = SegmentCodecProbe()
        func blocksCase(_ label: String, _ records: [[UInt8]], stream: String) throws -> Case {
            let blocks = records.flatMap { $0 }.withUnsafeBytes { SegmentCodecProbe.blocks(of: $0) }
            let decoded = try blocks.withUnsafeBytes { try probe.records(inBlocks: $0).get() }
            #expect(decoded == records.flatMap { $0 }, "\(label): blocks decode to the records they were made of")
            var count = 0
            do {
                try decoded.withUnsafeBytes { raw in
                    if stream == "sealed" {
                        try SealedRecordStream.forEach(in: raw) { _ in count += 1 }
                    } else {
                        try RecordStream.forEach(in: raw) { (_: RecordView) throws -> Void in count += 1 }
                    }
                }
            } catch let fault as RecordStream.Fault {
                return Case(case: label, op: "blocks", refused: fault.reason, blocks: hex(blocks), stream: stream, refused_at: count)
            }
            return Case(case: label, op: "blocks", blocks: hex(blocks), stream: stream, records: records.map { hex($0) })
        }
        var zeroEpoch = stored[0]
        for i in 20..<24 { zeroEpoch[i] = 0 }
        var shortSeal = stored[1]
        shortSeal.removeLast(16)
        shortSeal[2] = UInt8((shortSeal.count - 4) & 0xff)
        shortSeal[3] = UInt8((shortSeal.count - 4) >> 8)
        let plain = RecordEncoder.bytes(of: records()[0].1)
        let run = try runEvents(first: 1, count: 7).flatMap { $0 }.withUnsafeBytes {
            try RunSealer().seal($0, device: runDevice, first: 1, last: 7, with: keyB).recordBytes
        }
        var backwards = run
        for i in 20..<28 { backwards[i] = 0 }  // last: 0, below its first
        var swollen = run
        withUnsafeBytes(of: UInt64(10_000).littleEndian) { for (i, byte) in $0.enumerated() { swollen[20 + i] = byte } }
        return [
            try blocksCase("blocks of every sealed record above, both epochs", stored, stream: "sealed"),
            try blocksCase("sealed runs among sealed events and names", [stored[0], run, stored[12], run], stream: "sealed"),
            try blocksCase("a sealed run that ends before it starts", [stored[2], backwards], stream: "sealed"),
            try blocksCase("a sealed run that claims more events than its bytes could hold", [run, swollen], stream: "sealed"),
            try blocksCase("a plaintext record among sealed ones", [stored[0], plain, stored[2]], stream: "sealed"),
            try blocksCase("a sealed record of epoch 0", [stored[2], zeroEpoch], stream: "sealed"),
            try blocksCase("a sealed record whose ciphertext is not a multiple of 32 bytes", [shortSeal], stream: "sealed"),
            try blocksCase("sealed records read as plaintext", [plain, stored[0]], stream: "plaintext"),
        ]
    }

    /// Device names as an encrypted account's server keeps them (encryption.md §8, "Device
    /// names"): the text DeviceNameSealing.seal makes of a name record (`seal-name`), and what
    /// DeviceNameSealing.open gives for texts (`open-name`; `refused` "unopened" for none).
    static func deviceNameCases() throws -> [Case] {
        let device = DeviceID(rawValue: 0x8000_0000_0000_00a1)
        let hlc = HybridTimestamp(milliseconds: 1_764_000_000_000, counter: 3)
        var cases: [Case] = []
        for (label, name) in [("a device name", "Pixel 8 はな"), ("a name of 255 bytes", String(repeating: "駅", count: 85))] {
            let record = DeviceNameRecord(device: device, hlc: hlc, name: name)
            for key in [keyA, keyB] {
                let text = try DeviceNameSealing.seal(record, with: key)
                #expect(text.utf8.count <= SealedDeviceName.maximumLength, "\(label): fits the server's limit")
                cases.append(Case(case: "seal-name: \(label), epoch \(key.epoch)", op: "seal-name", key: hex(key.bytes), epoch: key.epoch,
                                  record: hex(RecordEncoder.bytes(of: .deviceName(record))), sealed_name: text,
                                  name: DeviceNameSealing.open(text, keys: KeyRing(key))))
            }
        }
        let record = DeviceNameRecord(device: device, hlc: hlc, name: "Pixel 8 はな")
        let good = try DeviceNameSealing.seal(record, with: keyA)
        let stored = Base64URL.decode(good.dropFirst(SealedDeviceName.prefix.count))!
        let event = try RecordSealer.seal(RecordEncoder.bytes(of: records()[4].1), with: keyA).recordBytes
        func opened(_ label: String, _ text: String, key: DataKey = keyA) -> Case {
            let name = DeviceNameSealing.open(text, keys: KeyRing(key))
            return Case(case: "open-name: \(label)", op: "open-name", key: hex(key.bytes), epoch: key.epoch,
                        refused: name == nil ? "unopened" : nil, sealed_name: text, name: name)
        }
        return cases + [
            opened("a sealed name", good),
            opened("under another epoch's key", good, key: keyB),
            opened("a name in the clear", "Pixel 8"),
            opened("not base64url", "sealed:***"),
            opened("a sealed event", SealedDeviceName.prefix + Base64URL.encode(event)),
            opened("two sealed names", SealedDeviceName.prefix + Base64URL.encode(stored + stored)),
            opened("one cut short", SealedDeviceName.prefix + Base64URL.encode(Array(stored.dropLast()))),
            opened("longer than 1,024 characters", good + String(repeating: "A", count: 1_024)),
        ]
    }

    @Test("encryption.jsonl: seals, refusals, wraps, fingerprints, kits, sealed blocks, sealed names and sealed runs")
    func corpus() throws {
        let blocks = try Self.blockCases()
        #expect(blocks.compactMap(\.refused).count == 6 && blocks.compactMap(\.records).count == 2)
        let names = try Self.deviceNameCases()
        #expect(names.filter { $0.refused != nil }.count == 7, "every open-name case but the first does not open")
        let primitives = try Self.sealingCases() + Self.keyCases()
        let runs = try Self.runCases()
        #expect(runs.filter { $0.op == "seal-run" }.count == 6 && runs.filter { $0.refused != nil }.count == 12)
        let cases = primitives + blocks + names + runs
        // Every refusal a case names is the one it is about, not a side effect.
        let refusals = Set(primitives.compactMap(\.refused))
        #expect(refusals == ["unauthentic", "noncanonical", "padding", "record", "kind", "identity", "length", "character", "checksum"])
        #expect(!refusals.contains("none"))
        try ConformanceCorpusTests.check("encryption.jsonl", try ConformanceCorpusTests.lines(cases))
    }
}
