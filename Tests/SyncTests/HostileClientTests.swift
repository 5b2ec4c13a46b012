import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import NIOHTTP1
import Testing

/// Requests a hostile or careless client sends, each on both stores:
/// no request crashes an instance, no answer reveals another user's devices, a re-created user
/// starts empty, and the server refuses what every client refuses. RELIABILITY.md's "hostile
/// client" table lists the same requests.
@Suite("Hostile clients on both stores")
struct HostileClientTests {
    /// Every boundary of the integers the API allows (sync-api.yaml: u64 seqs and version
    /// vectors, u32 stations, dates and catalogue versions, i64 limits, u64 hlcs as text).
    static let boundaries: [String] = ["0", "1", "2147483648", "4294967296", "9007199254740992",
                                       "9223372036854775807", "9223372036854775808", "18446744073709551615"]

    /// The bodies of one round: a pull with the value in `have`, `cursor` and `limit`, and a push
    /// with it in every numeric field of each record kind.
    static func bodies(_ value: String) -> [(String, String)] {
        let device = "00000000000abcdc"
        let digest = String(repeating: "0", count: 32)
        let hlc = "111000000000000000"
        return [
            ("/v1/pull", #"{"have":{"\#(device)":\#(value)},"have_digests":{"\#(device)":"\#(digest)"}}"#),
            ("/v1/pull", #"{"have":{},"have_digests":{},"cursor":\#(value)}"#),
            ("/v1/pull", #"{"have":{},"have_digests":{},"limit":\#(value)}"#),
            ("/v1/push", #"{"records":[{"kind":"station_edit","device":"\#(device)","hlc":"\#(hlc)","seq":\#(value),"station":120004,"comp_date":2020}]}"#),
            ("/v1/push", #"{"records":[{"kind":"station_edit","device":"\#(device)","hlc":"\#(hlc)","seq":1,"station":\#(value),"comp_date":20200000}]}"#),
            ("/v1/push", #"{"records":[{"kind":"station_edit","device":"\#(device)","hlc":"\#(hlc)","seq":1,"station":120004,"comp_date":\#(value)}]}"#),
            ("/v1/push", #"{"records":[{"kind":"station_edit","device":"\#(device)","hlc":"\#(value)","seq":1,"station":120004,"comp_date":20200000}]}"#),
            ("/v1/push", #"{"records":[{"kind":"catalog_version","device":"\#(device)","hlc":"\#(hlc)","seq":1,"catalog_version":\#(value)}]}"#),
            ("/v1/push", #"{"records":[{"kind":"knowledge_mark","device":"\#(device)","hlc":"\#(hlc)","seq":1,"knowledge":{"00000000000000a1":\#(value)}}]}"#),
            ("/v1/push", #"{"records":[{"kind":"device_name","device":"\#(device)","hlc":"\#(value)","name":"Phone"}]}"#),
        ]
    }

    @Test("every boundary integer in every numeric field gets a 2xx or 4xx and the server lives", arguments: StoreKind.allCases)
    func boundaryIntegers(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind, stations: StationSet([120_004]))
        let token = try await fixture.addUser("alice")
        for value in Self.boundaries {
            for (path, body) in Self.bodies(value) {
                let (status, bytes) = try await fixture.server.send(.POST, path, token: token, json: Array(body.utf8))
                #expect((200..<500).contains(status), "\(kind) \(path) \(body): \(status) \(String(decoding: bytes, as: UTF8.self))")
            }
            let (health, _) = try await fixture.server.send(.GET, "/v1/health", token: nil)
            #expect(health == 200, "\(kind): the server stopped answering after the value \(value)")
        }
        await fixture.stop()
    }

    /// The fuzz harness's request corpus (Tests/Fuzz/corpus/sync-request), mutated with a fixed
    /// seed (bytes flipped, dropped, doubled, digits swapped for boundary integers), sent to both
    /// stores' push and pull paths: the harness itself checks only the shared decoding, this
    /// reaches each store's handling of whatever decodes.
    @Test("seeded mutations of the fuzz corpus get a 2xx or 4xx from both stores' push and pull", arguments: StoreKind.allCases)
    func mutatedCorpus(kind: StoreKind) async throws {
        let corpus = try FileManager.default.contentsOfDirectory(atPath: Self.corpusDirectory).sorted().map {
            Array(try Data(contentsOf: URL(fileURLWithPath: Self.corpusDirectory + "/" + $0)))
        }
        #expect(corpus.count >= 4)
        let fixture = try await StoreFixture.make(kind, stations: StationSet([120_004, 1_130_101]))
        let token = try await fixture.addUser("alice")
        var generator = SeededGenerator(seed: 24)
        for round in 0..<150 {
            let body = Self.mutate(corpus[round % corpus.count], using: &generator)
            for path in ["/v1/push", "/v1/pull"] {
                let (status, bytes) = try await fixture.server.send(.POST, path, token: token, json: body)
                #expect((200..<500).contains(status),
                        "\(kind) \(path) round \(round) \(String(decoding: body, as: UTF8.self)): \(status) \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        let (health, _) = try await fixture.server.send(.GET, "/v1/health", token: nil)
        #expect(health == 200)
        await fixture.stop()
    }

    static let corpusDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fuzz/corpus/sync-request").standardized.path

    static func mutate(_ input: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: bytes[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(bytes[at], at: at)
            case 3: bytes = Array(bytes[..<at])
            default:
                guard let digit = bytes[at...].firstIndex(where: { (0x30...0x39).contains($0) }) else { continue }
                let end = bytes[digit...].firstIndex(where: { !(0x30...0x39).contains($0) }) ?? bytes.endIndex
                let value = boundaries.randomElement(using: &generator)!
                bytes.replaceSubrange(digit..<end, with: Array(value.utf8))
            }
        }
        return bytes
    }

    @Test("serve --max-user-bytes refuses the push that would exceed it with 413; duplicates, pulls and other users go on", arguments: StoreKind.allCases)
    func userSizeLimit(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("hostile-size")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let alice = try await store.addUser("alice"), bob = try await store.addUser("bob")
        let server = try await store.serve(["server", "serve", "--max-user-bytes", "6000"])
        defer { server.terminate() }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func batch(_ number: Int, device: DeviceID) throws -> [UInt8] {
            try Wire.push((1...20).map { offset in
                let seq = UInt64(number * 20 + offset)
                return .stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: HybridTimestamp(milliseconds: now - 100_000 + Int64(seq)),
                                                station: 120_004, compDate: .year(2020), memo: "memo \(seq) " + String(repeating: "駅", count: 30), origin: .user))
            })
        }
        var accepted = 0, refusal: (Int, String)?
        for number in 0..<20 {
            let (status, _, bytes) = try await testRequest(.POST, server.url + "/v1/push", token: alice, json: try batch(number, device: Wire.device))
            if status == 200 { accepted += 1; continue }
            refusal = (status, String(decoding: bytes, as: UTF8.self))
            break
        }
        #expect(accepted >= 1, "\(kind): the first push was refused")
        let (status, message) = try #require(refusal, "\(kind): 20 pushes of 20 records never met a 6000-byte limit")
        #expect(status == 413, "\(kind): \(message)")
        #expect(message.contains("--max-user-bytes") && message.contains("nothing was applied"), "\(kind): \(message)")
        let (duplicate, _, _) = try await testRequest(.POST, server.url + "/v1/push", token: alice, json: try batch(0, device: Wire.device))
        #expect(duplicate == 200, "\(kind): a push of held events only is not refused")
        let (pulled, _, _) = try await testRequest(.POST, server.url + "/v1/pull", token: alice, json: try Wire.pull())
        #expect(pulled == 200)
        let (other, _, _) = try await testRequest(.POST, server.url + "/v1/push", token: bob,
                                                  json: try batch(0, device: DeviceID(rawValue: 0xb0b)))
        #expect(other == 200, "\(kind): another user is held to her own size only")
    }

    /// The exact request of the finding, through the built binary: it killed a PostgreSQL
    /// instance with SIGILL.
    @Test("a pull whose have is 2^63 answers 200 and the instance keeps serving", arguments: StoreKind.allCases)
    func haveBeyondSignedRange(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("hostile-have")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try await store.addUser("alice")
        let server = try await store.serve()
        defer { server.terminate() }
        let body = #"{"have":{"00000000000abcdc":9223372036854775808},"have_digests":{"00000000000abcdc":"00000000000000000000000000000000"}}"#
        let (status, _, bytes) = try await testRequest(.POST, server.url + "/v1/pull", token: token, json: Array(body.utf8))
        #expect(status == 200, "\(kind): \(String(decoding: bytes, as: UTF8.self))")
        let (health, _, _) = try await testRequest(.GET, server.url + "/v1/health", token: nil, json: nil)
        #expect(health == 200)
        #expect(server.process.isRunning, "\(kind): serve died; its log:\n\(server.log)")
    }

    /// With alice's token, a pull naming dave's device: the answer must not depend on whether
    /// dave holds that device, nor on how far its seqs go.
    @Test("a pull's fork check looks only at the token user's devices", arguments: StoreKind.allCases)
    func forkCheckIsPerUser(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind, stations: StationSet([120_004]))
        let alice = try await fixture.addUser("alice")
        let dave = try await fixture.addUser("dave")
        let daves = DeviceID(rawValue: 0xda7e)
        let events = (1...3).map { Wire.edit($0, device: daves) }
        let (pushed, _) = try await fixture.server.send(.POST, "/v1/push", token: dave, json: try Wire.push(events))
        #expect(pushed == 200)
        let wrong = String(repeating: "0", count: 32)
        var answers: [String] = []
        for seq: UInt64 in [2, 3, 9] {
            let (status, bytes) = try await fixture.server.send(
                .POST, "/v1/pull", token: alice, json: try Wire.pull(have: [daves: seq], digests: [daves: wrong]))
            #expect(status == 200, "\(kind) seq \(seq): \(String(decoding: bytes, as: UTF8.self))")
            answers.append(try StoreConformanceTests.normalised(bytes))
        }
        #expect(Set(answers).count == 1, "\(kind): the answers differ by dave's seqs: \(answers)")
        #expect(answers.allSatisfy { !$0.contains(daves.description) }, "\(kind): \(answers)")
        await fixture.stop()
    }

    @Test("a completion date in the future in Japan and an hlc before 2000 are refused with 422", arguments: StoreKind.allCases)
    func implausibleEvents(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind, stations: StationSet([120_004]))
        let token = try await fixture.addUser("alice")
        let device = "00000000000000a1"
        let hlc = String(HybridTimestamp(milliseconds: StoreFixture.now - 60_000).rawValue)
        let cases: [(String, String)] = [
            ("comp_date 20991231", #"{"records":[{"kind":"station_edit","device":"\#(device)","hlc":"\#(hlc)","seq":1,"station":120004,"comp_date":20991231}]}"#),
            ("comp_date 2099", #"{"records":[{"kind":"station_edit","device":"\#(device)","hlc":"\#(hlc)","seq":1,"station":120004,"comp_date":20990000}]}"#),
            ("hlc 0", #"{"records":[{"kind":"station_edit","device":"\#(device)","hlc":"0","seq":1,"station":120004,"comp_date":20200000}]}"#),
            ("device name dated 1999", #"{"records":[{"kind":"device_name","device":"\#(device)","hlc":"\#(HybridTimestamp(milliseconds: 915_148_800_000).rawValue)","name":"Phone"}]}"#),
        ]
        for (name, body) in cases {
            let (status, bytes) = try await fixture.server.send(.POST, "/v1/push", token: token, json: Array(body.utf8))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(status == 422 && text.contains("\"error\":\"invalid\""), "\(kind) \(name): \(status) \(text)")
        }
        // Today in Japan at the server's clock is accepted (the boundary is a date, not a time).
        let today = CalendarDay(tokyoDateOfUnixMilliseconds: StoreFixture.now)
        let code = today.year * 10000 + today.month * 100 + today.day
        let body = #"{"records":[{"kind":"station_edit","device":"\#(device)","hlc":"\#(hlc)","seq":1,"station":120004,"comp_date":\#(code)}]}"#
        let (status, bytes) = try await fixture.server.send(.POST, "/v1/push", token: token, json: Array(body.utf8))
        #expect(status == 200, "\(kind) today: \(String(decoding: bytes, as: UTF8.self))")
        let (_, status2) = try await fixture.server.call(.GET, "/v1/status", token: token)
        #expect(status2["records"] as? Int == 1, "\(kind): nothing of the refused pushes was written")
        await fixture.stop()
    }

    /// `delete-user carol --yes`, then `add-user carol`, while `serve` runs: the new carol starts
    /// empty, and what she pushes is in files (or rows) that exist after a restart.
    @Test("a user deleted and made again while serve runs starts empty and keeps what she pushes", arguments: StoreKind.allCases)
    func recreatedUser(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("hostile-recreate")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let old = try await store.addUser("carol")
        var server = try await store.serve()
        defer { server.terminate() }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let oldDevice = DeviceID(rawValue: 0xc0ffee)
        let oldEvents = (1...5).map { Wire.edit($0, station: 120_004, device: oldDevice, hlcMilliseconds: now - 60_000) }
        var (status, _, _) = try await testRequest(.POST, server.url + "/v1/push", token: old, json: try Wire.push(oldEvents))
        #expect(status == 200)

        try await store.server("delete-user", "carol", "--yes").expectSuccess()
        let new = try await store.addUser("carol")
        let (oldStatus, _, _) = try await testRequest(.GET, server.url + "/v1/status", token: old, json: nil)
        #expect(oldStatus == 401, "\(kind): the deleted user's token still works")

        let (fresh, _, body) = try await testRequest(.GET, server.url + "/v1/status", token: new, json: nil)
        let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        #expect(fresh == 200)
        #expect(object?["records"] as? Int == 0, "\(kind): the new carol sees the old one's records: \(object ?? [:])")
        #expect((object?["server_has"] as? [String: Any])?.isEmpty == true, "\(kind): \(object ?? [:])")

        let newDevice = DeviceID(rawValue: 0xbeef)
        (status, _, _) = try await testRequest(.POST, server.url + "/v1/push", token: new,
                                               json: try Wire.push([Wire.edit(1, device: newDevice, hlcMilliseconds: now - 30_000)]))
        #expect(status == 200)
        await #expect(server.stop() == 0)
        server = try await store.serve()
        let (after, _, afterBody) = try await testRequest(.GET, server.url + "/v1/status", token: new, json: nil)
        let afterObject = try JSONSerialization.jsonObject(with: Data(afterBody)) as? [String: Any]
        #expect(after == 200)
        #expect(afterObject?["server_has"] as? [String: Int] == [newDevice.description: 1],
                "\(kind): the acknowledged push was lost or the old data came back: \(afterObject ?? [:])")
    }
}
