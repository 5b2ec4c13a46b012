import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import NIOHTTP1
import SyncClient
import SyncServer
import Testing

/// The binary batches of Schemas/sync-frames.md: the envelope, the negotiation, `sync` over
/// frames and over JSON on both stores, and bad frames answered as the JSON path answers.
@Suite("Record frames on the wire")
struct FramesWireTests {
    static let device = DeviceID(rawValue: 0x5151_5151_5151_5151)

    static func edits(_ seqs: ClosedRange<UInt64>, device: DeviceID = device, memo: String = "m") -> EncodedRecords {
        EncodedRecords(seqs.map {
            LedgerRecord.stationEdit(StationEdit(id: EventID(device: device, seq: $0), hlc: HybridTimestamp(milliseconds: 1_700_000_000_000 + Int64($0)),
                                                 station: UInt32(100 + $0), compDate: .unknown, memo: "\(memo)\($0)", origin: .user))
        })
    }

    static func body(_ records: EncodedRecords, count: Int? = nil) throws -> [UInt8] {
        try FramesBody.encode(header: PushFramesHeader(count: count ?? records.count), records: records, writer: RecordFrames.Writer())
    }

    @Test("records survive the envelope byte for byte, across several frames", arguments: [1, 3, 40_000] as [UInt64])
    func roundTrip(count: UInt64) throws {
        var random = SeededGenerator(seed: count)
        var records = EncodedRecords()
        for seq in 1...count {
            let memo = String(repeating: "駅", count: Int.random(in: 0...40, using: &random))
            records.append(.stationEdit(StationEdit(id: EventID(device: DeviceID(rawValue: UInt64.random(in: 1...5, using: &random)), seq: seq),
                                                    hlc: HybridTimestamp(milliseconds: 1_700_000_000_000 + Int64(seq)), station: UInt32(seq),
                                                    compDate: .unknown, memo: memo.isEmpty ? nil : memo, origin: .user)))
        }
        records.append(.deviceName(DeviceNameRecord(device: Self.device, hlc: HybridTimestamp(milliseconds: 1), name: "電話")))
        let body = try Self.body(records)
        let (header, back) = try FramesBody.decode(body, as: PushFramesHeader.self, maximumRecords: 100_000)
        #expect(header.count == records.count)
        #expect(back.bytes == records.bytes)
    }

    enum Damage: String, CaseIterable { case cut, flippedByte, countTooHigh, countTooLow, badMagic, headerPastEnd, tooMany }

    @Test("a damaged body is refused with a sentence, malformed (400) or too large (413)", arguments: Damage.allCases)
    func damagedBodies(_ damage: Damage) throws {
        let records = Self.edits(1...50)
        var body = try Self.body(records)
        switch damage {
        case .cut: body.removeLast(body.count / 3)
        case .flippedByte: body[body.count - 12] ^= 0x40
        case .countTooHigh: body = try Self.body(records, count: 51)
        case .countTooLow: body = try Self.body(records, count: 49)
        case .badMagic: body[0] = UInt8(ascii: "X")
        case .headerPastEnd: body[7] = 0x7F
        case .tooMany: body = try Self.body(records, count: 1_000)
        }
        var refusal: FramesBody.Refusal?
        do { _ = try FramesBody.decode(body, as: PushFramesHeader.self, maximumRecords: 500) } catch { refusal = error }
        let refused = try #require(refusal, "\(damage) was accepted")
        #expect(refused.kind == (damage == .tooMany ? .tooLarge : .malformed), "\(refused.message)")
        #expect(!refused.message.isEmpty && !refused.message.contains("\n"))
    }

    @Test("Accept with q-values picks frames only when the client prefers them", arguments: [
        (nil, false), ("application/json", false), (FramesBody.mediaType, true),
        ("\(FramesBody.mediaType), application/json;q=0.5", true), ("application/json, \(FramesBody.mediaType);q=0.5", false),
        ("\(FramesBody.mediaType);q=0", false), ("*/*", false), ("\(FramesBody.mediaType);q=0.9, */*;q=0.1", true),
        ("APPLICATION/X-ORITSUBUSHI-FRAMES", true),
    ] as [(String?, Bool)])
    func negotiation(accept: String?, frames: Bool) {
        #expect(MediaNegotiation.prefersFrames(accept: accept) == frames)
    }

    @Test("sync takes frames from this server and JSON from a JSON-only one; both converge", arguments: StoreKind.allCases)
    func syncOverFramesAndJSON(_ kind: StoreKind) async throws {
        for jsonOnly in [false, true] {
            let dir = try TemporaryDirectory("frames-sync-\(kind)-\(jsonOnly)")
            defer { dir.remove() }
            let store = try await CommandLineStore.make(kind, in: dir)
            let token = try await store.addUser("alice")
            let process = try await ServerProcess(storeArguments: store.arguments + (jsonOnly ? ["--no-frames"] : []))
            defer { process.terminate() }
            let connection = try SyncConnection(server: process.url, token: token)
            let (a, b) = (dir.sub("a"), dir.sub("b"))
            try await CLI.run("init", "--ledger", a, "--device", "phone", "--no-catalog").expectSuccess()
            try await CLI.run("init", "--ledger", b, "--device", "tablet", "--no-catalog").expectSuccess()
            try await CLI.run("complete", "202919", "2020-05", "--memo", "東京 \"quoted\"", "--ledger", a).expectSuccess()
            try await CLI.run("complete", "120004", "2019", "--ledger", b).expectSuccess()
            for ledger in [a, b, a] {
                try await CLI.run(["sync", "--server", process.url, "--ledger", ledger], environment: ["ORITSUBUSHI_TOKEN": token]).expectSuccess()
            }
            let page = try await connection.pullPage(PullRequest(have: [:]))
            #expect(page.framed == !jsonOnly, "\(kind), JSON only: \(jsonOnly)")
            #expect(page.records.count >= 4, "two edits and two names at least")
            let exports = try await [a, b].asyncMap { try await CLI.run("export", "--format", "tsv", "--ledger", $0).stdout }
            #expect(exports[0] == exports[1] && exports[0].contains("202919") && exports[0].contains("120004"))
        }
    }

    enum BadPush: String, CaseIterable { case cut, flippedByte, tooMany, forgedEvent, seqGap, anotherUsersDevice, invalidEdit }

    @Test("bad frames get the JSON path's answers and write nothing", arguments: StoreKind.allCases)
    func badPushes(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("frames-bad-\(kind)")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let alice = try await store.addUser("alice"), bob = try await store.addUser("bob")
        let process = try await store.serve()
        defer { process.terminate() }
        func push(_ body: [UInt8], token: String = alice, frames: Bool = true) async throws -> (Int, String) {
            let (status, _, bytes) = try await testRequest(.POST, process.url + "/v1/push", token: token, json: body,
                                                           contentType: frames ? FramesBody.mediaType : "application/json")
            return (status, String(decoding: bytes, as: UTF8.self))
        }
        func json(_ records: EncodedRecords) throws -> [UInt8] { Array(try JSONEncoder().encode(PushRequest(records: records.wireRecords))) }
        let (first, text) = try await push(try Self.body(Self.edits(1...3)))
        #expect(first == 200, "\(text)")
        let before = try await testRequest(.GET, process.url + "/v1/status", token: alice, json: nil).2
        let bobs = Self.edits(1...1, device: DeviceID(rawValue: 0x77))
        _ = try await push(try Self.body(bobs), token: bob)
        for bad in BadPush.allCases {
            var records = Self.edits(4...5)
            var body = try Self.body(records)
            var expected: Int
            switch bad {
            case .cut: body.removeLast(10); expected = 400
            case .flippedByte: body[body.count - 12] ^= 0x40; expected = 400
            case .tooMany: body = try Self.body(records, count: 5_000_000); expected = 413
            case .forgedEvent: records = Self.edits(2...2, memo: "forged"); body = try Self.body(records); expected = 409
            case .seqGap: records = Self.edits(7...8); body = try Self.body(records); expected = 409
            case .anotherUsersDevice: records = Self.edits(2...2, device: DeviceID(rawValue: 0x77)); body = try Self.body(records); expected = 403
            case .invalidEdit:
                records = EncodedRecords([.stationEdit(StationEdit(id: EventID(device: Self.device, seq: 4), hlc: HybridTimestamp(milliseconds: 1_700_000_000_100),
                                                                   station: 0, compDate: .unknown, memo: "x", origin: .user))])
                body = try Self.body(records)
                expected = 422
            }
            let (status, message) = try await push(body)
            #expect(status == expected, "\(kind) \(bad): \(status) \(message)")
            #expect(message.contains("\"error\"") && message.contains("\"message\""), "\(kind) \(bad): one Error body: \(message)")
            if [.forgedEvent, .seqGap, .anotherUsersDevice, .invalidEdit].contains(bad) {
                let (jsonStatus, jsonMessage) = try await push(try json(records), frames: false)
                #expect(jsonStatus == status, "\(kind) \(bad): JSON answers \(jsonStatus) \(jsonMessage)")
            }
        }
        let after = try await testRequest(.GET, process.url + "/v1/status", token: alice, json: nil).2
        #expect(after == before, "\(kind): nothing written by a refused push")
    }
}
