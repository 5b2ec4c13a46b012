import Foundation
import LedgerSync
import LedgerTestSupport
import Testing

/// The streaming coder of the sync API's records (`WireJSON`) against Foundation's, which it
/// replaces: the same bytes out, the same records in, the same refusals (and so the same status
/// and message from the server, which words its 400 from the decoding error).
@Suite("WireJSON: the streaming coder gives Foundation's bytes, records and refusals")
struct WireJSONTests {
    private static let scalars: [String] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{01}", "\u{1F}", "\u{7F}",
        "é", "漢", "駅", "😀", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "{", "}", "[", "]", ":", ",",
    ]

    private static func text(_ g: inout SeededGenerator, maxCount: Int = 40) -> String {
        // One in eight is at the memo limit, in 3-byte characters (4,095 bytes) or ASCII (4,096).
        if Int.random(in: 0..<8, using: &g) == 0 {
            return Bool.random(using: &g) ? String(repeating: "漢", count: 1365) : String(repeating: "/", count: 4096)
        }
        return (0..<Int.random(in: 0...maxCount, using: &g)).map { _ in scalars.randomElement(using: &g)! }.joined()
    }

    private static func device(_ g: inout SeededGenerator) -> String {
        String(String(UInt64.random(in: 1...UInt64.max, using: &g), radix: 16).reversed()).padding(toLength: 16, withPad: "0", startingAt: 0)
    }

    private static func maybe<T>(_ g: inout SeededGenerator, _ make: (inout SeededGenerator) -> T) -> T? {
        Bool.random(using: &g) ? make(&g) : nil
    }

    private static func number(_ g: inout SeededGenerator) -> UInt64 {
        [0, 1, 9, 10, UInt64(UInt32.max), .max, UInt64.random(in: 0...UInt64.max, using: &g)].randomElement(using: &g)!
    }

    /// Any record the coder may meet: every kind, and fields in any combination.
    private static func record(_ g: inout SeededGenerator) -> WireRecord {
        let kinds = [WireRecord.stationEdit, WireRecord.catalogVersionKind, WireRecord.deviceNameKind, WireRecord.knowledgeMarkKind, "other"]
        return WireRecord(
            kind: kinds.randomElement(using: &g)!, device: device(&g), seq: maybe(&g, number),
            hlc: String(number(&g)), station: maybe(&g) { UInt32(truncatingIfNeeded: number(&$0)) },
            compDate: maybe(&g) { UInt32(truncatingIfNeeded: number(&$0)) }, memo: maybe(&g) { text(&$0) },
            origin: maybe(&g) { ["user", "import", text(&$0, maxCount: 4)].randomElement(using: &$0)! },
            catalogVersion: maybe(&g) { UInt32(truncatingIfNeeded: number(&$0)) }, name: maybe(&g) { text(&$0) },
            knowledge: maybe(&g) { g in Dictionary((0..<Int.random(in: 0...4, using: &g)).map { _ in (device(&g), number(&g)) }) { a, _ in a } })
    }

    private static func records(_ g: inout SeededGenerator) -> [WireRecord] {
        (0..<Int.random(in: 0...12, using: &g)).map { _ in record(&g) }
    }

    private static func foundation<T: Encodable>(_ value: T, sorted: Bool = true) throws -> [UInt8] {
        let encoder = JSONEncoder()
        if sorted { encoder.outputFormatting = [.sortedKeys] }
        return Array(try encoder.encode(value))
    }

    private static func response(_ g: inout SeededGenerator, records: [WireRecord]) -> PullResponse {
        let vector = Dictionary((0..<Int.random(in: 0...5, using: &g)).map { _ in (Self.device(&g), Self.number(&g)) }) { a, _ in a }
        return PullResponse(
            records: records, more: Bool.random(using: &g), cursor: Self.number(&g), serverHas: vector,
            catalogVersion: Self.maybe(&g) { UInt32(truncatingIfNeeded: Self.number(&$0)) },
            serverDigests: vector.mapValues { _ in Self.text(&g, maxCount: 8) })
    }

    @Test("pull responses and push requests: byte for byte what JSONEncoder (.sortedKeys) writes", arguments: [1, 2, 3] as [UInt64])
    func encodesAsFoundation(seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let response = Self.response(&g, records: Self.records(&g))
            #expect(try WireJSON.encode(response) == Self.foundation(response))
            let request = PushRequest(records: response.records)
            #expect(try WireJSON.encode(request) == Self.foundation(request))
        }
    }

    /// The two bodies the streaming reader reads: push requests (the server) and pull responses (`sync`).
    enum Body: String, Sendable, CaseIterable {
        case push, pull
    }

    private enum Outcome: Equatable {
        /// What was read, written back by `JSONEncoder` (`.sortedKeys`) to compare it.
        case decoded([UInt8])
        case refused(String)
    }

    /// What `WireJSON.decode` answers and what `JSONDecoder` answers (the server's 400 message
    /// is made from the decoding error), and whether the streaming reader took the body.
    private static func outcomes(_ body: [UInt8], as kind: Body) -> (new: Outcome, old: Outcome, streamed: Bool) {
        switch kind {
        case .push: outcomes(body, PushRequest.self, streaming: WireJSONReader.pushRequest)
        case .pull: outcomes(body, PullResponse.self, streaming: WireJSONReader.pullResponse)
        }
    }

    private static func outcomes<T: Codable>(_ body: [UInt8], _ type: T.Type, streaming: (UnsafeRawBufferPointer) -> T?)
        -> (new: Outcome, old: Outcome, streamed: Bool) {
        func run(_ decode: () throws -> T) -> Outcome {
            do { return .decoded(try foundation(try decode())) } catch { return .refused("\(error)") }
        }
        let new = run { try body.withUnsafeBytes { try WireJSON.decode(T.self, from: $0) } }
        let old = run { try JSONDecoder().decode(T.self, from: Data(body)) }
        return (new, old, body.withUnsafeBytes { streaming($0) } != nil)
    }

    @Test("push bodies: the streaming reader takes what clients send and reads the same records", arguments: [4, 5, 6] as [UInt64])
    func decodesAsFoundation(seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let request = PushRequest(records: Self.records(&g))
            for body in [try Self.foundation(request, sorted: false), try Self.foundation(request), Self.spaced(try Self.foundation(request), &g)] {
                let streamed = try #require(body.withUnsafeBytes { WireJSONReader.pushRequest($0) })
                #expect(streamed.records == request.records)
            }
        }
    }

    private static let structural = Set(Array("{}[]:,\"".utf8))

    /// Whitespace between tokens (before punctuation and strings), as a hand-written client may send.
    private static func spaced(_ body: [UInt8], _ g: inout SeededGenerator) -> [UInt8] {
        var out: [UInt8] = []
        var inString = false, escaped = false
        for byte in body {
            if !inString && Self.structural.contains(byte) && Int.random(in: 0..<4, using: &g) == 0 { out.append([0x20, 0x0A, 0x09, 0x0D].randomElement(using: &g)!) }
            out.append(byte)
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
            } else if byte == 0x22 { inString = true }
        }
        return out
    }

    @Test("pull bodies: the streaming reader takes what servers send and reads what JSONDecoder reads", arguments: [9, 10, 11] as [UInt64])
    func decodesPullAsFoundation(seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let response = Self.response(&g, records: Self.records(&g))
            for body in [try Self.foundation(response, sorted: false), try Self.foundation(response), Self.spaced(try Self.foundation(response), &g)] {
                let streamed = try #require(body.withUnsafeBytes { WireJSONReader.pullResponse($0) })
                #expect(try Self.foundation(streamed) == Self.foundation(response))
                #expect(try Self.foundation(streamed) == Self.foundation(JSONDecoder().decode(PullResponse.self, from: Data(body))))
            }
        }
    }

    @Test("mutated bodies: the same value or the same refusal as JSONDecoder",
          arguments: [(7, .push), (8, .push), (12, .pull), (13, .pull)] as [(UInt64, Body)])
    func mutationsAnswerAsFoundation(seed: UInt64, kind: Body) throws {
        var g = SeededGenerator(seed: seed)
        let alphabet = Array("{}[]:,\"\\/0123456789.e-+ nultrfaskidvhcmoqgb\u{0}\u{1F}".utf8) + [0x80, 0xC3, 0xE6, 0xFF]
        var streamed = 0
        for _ in 0..<2000 {
            let records = (0..<Int.random(in: 1...3, using: &g)).map { _ in Self.record(&g) }
            var body = try kind == .push ? Self.foundation(PushRequest(records: records)) : Self.foundation(Self.response(&g, records: records))
            for _ in 0..<Int.random(in: 1...3, using: &g) where !body.isEmpty {
                let at = Int.random(in: 0..<body.count, using: &g)
                switch Int.random(in: 0..<4, using: &g) {
                case 0: body.remove(at: at)
                case 1: body.insert(alphabet.randomElement(using: &g)!, at: at)
                case 2: body[at] = alphabet.randomElement(using: &g)!
                default: body.insert(contentsOf: body[at..<min(body.count, at + Int.random(in: 1...12, using: &g))], at: at)
                }
            }
            let outcome = Self.outcomes(body, as: kind)
            #expect(outcome.new == outcome.old, "\(String(decoding: body, as: UTF8.self))")
            if outcome.streamed { streamed += 1 }
        }
        #expect(streamed > 100, "the streaming path is exercised, not only the fallback")
    }

    private static let record = #"{"device":"00000000000000a1","hlc":"1","kind":"station_edit","seq":1,"station":202919,"comp_date":20240503}"#

    @Test("malformed push bodies: the same refusal (and so the same 400 and message) as before", arguments: [
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"station_edit","seq":1,"bogus":2}]}"#,  // unknown key
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"station_edit","seq":1,"seq":2}]}"#,  // duplicate key
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"station_edit","seq":"1"}]}"#,  // wrong type
        #"{"records":[{"device":"00000000000000a1","hlc":1,"kind":"station_edit","seq":1}]}"#,  // wrong type
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"station_edit","station":4294967296}]}"#,  // out of range
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"station_edit","seq":18446744073709551616}]}"#,
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"station_edit","seq":-1}]}"#,
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"station_edit","seq":1.5}]}"#,
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"station_edit","seq":1.0}]}"#,  // accepted, as before
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"station_edit","seq":1e1}]}"#,
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"station_edit","seq":01}]}"#,
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":null}]}"#,  // null where required
        #"{"records":[{"device":"00000000000000a1","hlc":"1"}]}"#,  // missing key
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"x","memo":"\ud800"}]}"#,  // lone surrogate
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"x","memo":"\ud83d\ude00"}]}"#,  // a pair, accepted
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"x","memo":"\u00e9\u0000\/\b"}]}"#,
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"x","memo":"\x"}]}"#,
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"x","knowledge":{"a":1,"a":2}}]}"#,
        #"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"x","knowledge":[]}]}"#,
        #"{"records":[]}"#, #"{"records":{}}"#, #"{"records":null}"#, #"{}"#, #"[]"#, "", " ", "nul",
        #"{"records":[],"records":[1]}"#, #"{"records":[],"extra":true}"#, #"{"records":[]} x"#, #"{"records":[],}"#,
        #"{"records":[\#(record),]}"#, #"{"records":[\#(record)]"#, "\u{FEFF}{\"records\":[]}",
        String(repeating: "[", count: 10_000), #"{"records":["# + String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600) + "]}",
    ])
    func malformedAnswersAsFoundation(_ body: String) {
        let outcome = Self.outcomes(Array(body.utf8), as: .push)
        #expect(outcome.new == outcome.old)
    }

    private static let pullRest = #""more":true,"records":[],"server_digests":{},"server_has":{}"#

    @Test("malformed pull bodies: the same value or refusal as JSONDecoder; the plain ones streamed", arguments: [
        (#"{"cursor":1,\#(pullRest)}"#, true), (#"{"catalog_version":176,"cursor":1,\#(pullRest)}"#, true),
        (#"{"catalog_version":null,"cursor":1,\#(pullRest)}"#, true),  // null is absent, as decodeIfPresent reads it
        (#" { "server_has" : {"a":1} , "cursor":0,"more":false,"records":[],"server_digests":{"a":"x"} } "#, true),
        (#"{"cursor":1,\#(pullRest),"extra":1}"#, false),  // an unknown key: Foundation ignores it
        (#"{"cursor":1,"cursor":2,\#(pullRest)}"#, false),  // a repeated key
        (#"{\#(pullRest)}"#, false),  // cursor missing
        (#"{"cursor":-1,\#(pullRest)}"#, false), (#"{"cursor":1.0,\#(pullRest)}"#, false), (#"{"cursor":"1",\#(pullRest)}"#, false),
        (#"{"cursor":1,"more":1,"records":[],"server_digests":{},"server_has":{}}"#, false),
        (#"{"cursor":1,"more":null,"records":[],"server_digests":{},"server_has":{}}"#, false),
        (#"{"cursor":1,"more":truex,"records":[],"server_digests":{},"server_has":{}}"#, false),
        (#"{"cursor":1,"more":tru,"records":[],"server_digests":{},"server_has":{}}"#, false),
        (#"{"catalog_version":4294967296,"cursor":1,\#(pullRest)}"#, false),
        (#"{"cursor":1,"more":true,"records":null,"server_digests":{},"server_has":{}}"#, false),
        (#"{"cursor":1,"more":true,"records":[],"server_digests":{"a":1},"server_has":{}}"#, false),
        (#"{"cursor":1,"more":true,"records":[],"server_digests":{},"server_has":{"a":1,"a":2}}"#, false),
        (#"{"cursor":1,"more":true,"records":[{"device":"00000000000000a1","hlc":"1"}],"server_digests":{},"server_has":{}}"#, false),
        (#"{"cursor":1,\#(pullRest)} x"#, false), (#"{"cursor":1,\#(pullRest),}"#, false), (#"{}"#, false), ("", false),
    ] as [(String, Bool)])
    func malformedPullAnswersAsFoundation(_ body: String, plain: Bool) {
        let outcome = Self.outcomes(Array(body.utf8), as: .pull)
        #expect(outcome.new == outcome.old)
        #expect(outcome.streamed == plain)
    }

    @Test("bad UTF-8 inside a string is refused as before")
    func badUTF8() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]] {
            let body = Array(#"{"records":[{"device":"00000000000000a1","hlc":"1","kind":"x","memo":""#.utf8) + bad + Array(#""}]}"#.utf8)
            let outcome = Self.outcomes(body, as: .push)
            #expect(outcome.new == outcome.old && !outcome.streamed, "\(bad)")
            if case .decoded = outcome.old { Issue.record("bad UTF-8 \(bad) was accepted") }
        }
    }
}
