import LedgerCore
import LedgerSync
import Testing

/// A frames body (Schemas/sync-frames.md) of an encrypted account's sealed records
/// (segment-format.md §3.6): encoded and decoded by the one code that does plaintext bodies, with
/// the same refusals and bounds, and a body of the other form refused with its own sentence.
@Suite("Frames bodies of sealed records")
struct SealedFramesBodyTests {
    /// `SealedFramesTests.mixedRecords` (600 records of 300 devices, names included) sealed.
    static func sealedRecords(seed: UInt64, key: DataKey) throws -> (plain: [[UInt8]], sealed: SealedRecords) {
        let plain = SealedFramesTests.mixedRecords(seed: seed)
        var sealed = SealedRecords()
        for record in plain { sealed.append(try RecordSealer.seal(record, with: key)) }
        return (plain, sealed)
    }

    static func pushBody(_ records: SealedRecords, count: Int? = nil) throws -> [UInt8] {
        try FramesBody.encode(header: PushFramesHeader(count: count ?? records.count), records: records,
                              writer: RecordFrames.Writer())
    }

    static func refusal(_ body: [UInt8], maximumRecords: Int = 100_000,
                        maximumDecodedBytes: Int = .max) -> FramesBody.Refusal? {
        do {
            _ = try FramesBody.decodeSealed(body, as: PushFramesHeader.self, maximumRecords: maximumRecords,
                                            maximumDecodedBytes: maximumDecodedBytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("a push of 600 sealed events and names of 300 devices decodes to the same records, which open to the ones sealed")
    func roundTrip() throws {
        let key = DataKey.random(epoch: 2)
        let (plain, sealed) = try Self.sealedRecords(seed: 21, key: key)
        #expect(sealed.count == 600)
        let body = try Self.pushBody(sealed)
        let (header, decoded) = try FramesBody.decodeSealed(body, as: PushFramesHeader.self, maximumRecords: 100_000)
        #expect(header.count == 600)
        #expect(decoded.count == sealed.count)
        #expect(decoded.bytes == sealed.bytes, "the records decode byte for byte as they were sealed")
        let kinds = decoded.records.map(\.kind)
        #expect(kinds.filter { $0 == .name }.count == 120 && kinds.filter { $0 == .event }.count == 480)
        let opened = try decoded.records.map { try RecordSealer.open($0, with: key) }
        #expect(opened == plain)
        // Received frames are kept, and go out again as they came.
        #expect(decoded.frames != nil)
        #expect(try Self.pushBody(decoded) == body)
    }

    @Test("a pull answer's header comes back with its sealed records")
    func pullHeader() throws {
        let (_, sealed) = try Self.sealedRecords(seed: 4, key: DataKey.random(epoch: 1))
        let page = PullResponse(records: [], more: true, cursor: 17, serverHas: [:], catalogVersion: nil, serverDigests: [:])
        let body = try FramesBody.encode(header: PullFramesHeader(count: sealed.count, page: page), records: sealed,
                                         writer: RecordFrames.Writer())
        let (header, decoded) = try FramesBody.decodeSealed(body, as: PullFramesHeader.self, maximumRecords: .max)
        #expect(header.page.cursor == 17 && header.page.more)
        #expect(decoded.bytes == sealed.bytes)
    }

    @Test("a sealed body holding a plaintext record, and a plaintext body holding a sealed one, are refused with their own sentences")
    func mixedFormsRefused() throws {
        let key = DataKey.random(epoch: 1)
        let plain = SealedFramesTests.mixedRecords(seed: 8)
        // Sealed records with one plaintext record at index 3.
        var sealedStream: [[UInt8]] = try plain.prefix(6).map { try RecordSealer.seal($0, with: key).recordBytes }
        sealedStream.insert(plain[7], at: 3)
        let sealedBody = Self.body(count: sealedStream.count, frames: SealedFramesTests.frames(of: sealedStream))
        let refused = try #require(Self.refusal(sealedBody))
        #expect(refused.kind == .invalid)
        #expect(refused.otherRecords == .plaintext)
        #expect(refused.message.hasPrefix("record 3 is a plaintext record, but this body must hold sealed records only"))
        // A whole plaintext push sent to an encrypted account.
        var plainRecords = EncodedRecords()
        for record in plain.prefix(5) { plainRecords.append(try Self.record(record)) }
        let plainBody = try FramesBody.encode(header: PushFramesHeader(count: 5), records: plainRecords, writer: RecordFrames.Writer())
        #expect(Self.refusal(plainBody)?.otherRecords == .plaintext)
        #expect(Self.refusal(plainBody)?.message.hasPrefix("record 0 is a plaintext record") == true)
        // The other way: a sealed record in a plaintext body.
        var plainStream = Array(plain.prefix(4))
        plainStream.append(try RecordSealer.seal(plain[5], with: key).recordBytes)
        do {
            _ = try FramesBody.decode(Self.body(count: 5, frames: SealedFramesTests.frames(of: plainStream)),
                                      as: PushFramesHeader.self, maximumRecords: 100)
            Issue.record("a plaintext decode took a sealed record")
        } catch {
            #expect(error.kind == .invalid && error.otherRecords == .sealed)
            #expect(error.message.hasPrefix("record 4 is a sealed record, but this body must hold plaintext records only"))
        }
        // Any other bad sealed record keeps the plain `invalid` refusal, with no form named.
        var zeroEpoch = try RecordSealer.seal(plain[3], with: key).recordBytes
        zeroEpoch[4 + 16] = 0
        zeroEpoch[4 + 16 + 1] = 0
        zeroEpoch[4 + 16 + 2] = 0
        zeroEpoch[4 + 16 + 3] = 0
        let bad = try #require(Self.refusal(Self.body(count: 1, frames: SealedFramesTests.frames(of: [zeroEpoch]))))
        #expect(bad.kind == .invalid && bad.otherRecords == nil)
        #expect(bad.message == "record 0: a sealed record has a zero device, seq or epoch")
    }

    @Test("the bounds and refusals of a plaintext body hold for a sealed one")
    func bounds() throws {
        let (_, sealed) = try Self.sealedRecords(seed: 30, key: DataKey.random(epoch: 3))
        let body = try Self.pushBody(sealed)
        // More records declared than a push may carry: refused before any frame is read.
        let tooMany = try #require(Self.refusal(body, maximumRecords: 599))
        #expect(tooMany.kind == .tooLarge && tooMany.message == "a batch may carry at most 599 records; send smaller pages")
        // Records decoding past the limit, counted in sealed stored forms.
        let tooBig = try #require(Self.refusal(body, maximumDecodedBytes: sealed.bytes.count - 1))
        #expect(tooBig.kind == .tooLarge)
        #expect(Self.refusal(body, maximumDecodedBytes: sealed.bytes.count) == nil, "exactly the limit passes")
        // A count that disagrees with the frames.
        #expect(Self.refusal(try Self.pushBody(sealed, count: 601))?.message
            == "the frames body is malformed: its frames hold 600 records, not the 601 of its header")
        #expect(Self.refusal(try Self.pushBody(sealed, count: 599))?.message
            == "the frames body is malformed: its frames hold more records than the 599 of its header")
        // A cut frame, a changed byte, a bad magic.
        let cut = Self.refusal(Array(body.dropLast(3)))
        #expect(cut?.kind == .malformed && cut?.message.contains("the frame is cut off") == true)
        var flipped = body
        flipped[body.count - 40] ^= 0x10
        #expect(Self.refusal(flipped)?.kind == .malformed)
        var magic = body
        magic[0] = UInt8(ascii: "X")
        #expect(Self.refusal(magic)?.message == "the frames body is malformed: it does not start with \"OSF1\" and a header length")
    }

    @Test("an empty sealed push decodes to no records")
    func empty() throws {
        let body = try Self.pushBody(SealedRecords())
        let (header, decoded) = try FramesBody.decodeSealed(body, as: PushFramesHeader.self, maximumRecords: 10)
        #expect(header.count == 0 && decoded.count == 0 && decoded.bytes.isEmpty)
    }

    // MARK: - Helpers

    /// A push body of `count` and `frames` as they are.
    static func body(count: Int, frames: [UInt8]) -> [UInt8] {
        let json = Array("{\"count\":\(count)}".utf8)
        var body = Array("OSF1".utf8)
        withUnsafeBytes(of: UInt32(json.count).littleEndian) { body.append(contentsOf: $0) }
        return body + json + frames
    }

    /// The one record of `bytes` as a view's record (EncodedRecords takes views or values).
    static func record(_ bytes: [UInt8]) throws -> LedgerRecord {
        var found: LedgerRecord?
        try bytes.withUnsafeBytes { raw in try RecordStream.forEach(in: raw) { (view: RecordView) in found = view.record } }
        return try #require(found)
    }
}
