import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import NIOHTTP1
import Testing

/// What eight maximal pushes at once cost the server (RELIABILITY.md, "The server's second
/// hardening round"): each frames body decodes to just under `--max-decoded-bytes` (64 MiB by
/// default), so each is admitted; the server's peak resident memory stays within the documented
/// bound, and another user's request is answered while they run, not after them.
@Suite("Eight maximal pushes at once")
struct PushMemoryTests {
    /// The documented bound on the server's peak resident memory while eight pushes of 64 MiB
    /// decoded each run at once (RELIABILITY.md): eight times three times the limit (a push's
    /// decoded records, its admitted copy and the frames it stores).
    static let peakBound = 1_536 << 20

    /// `count` edits of `device` with 4,000-byte memos: about 4 KB decoded an edit, a few bytes
    /// once LZ4 has them.
    static func body(device: DeviceID, count: Int) throws -> [UInt8] {
        let memo = String(repeating: "a", count: 4_000)
        let records = EncodedRecords((1...UInt64(count)).map { seq in
            LedgerRecord.stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: HybridTimestamp(milliseconds: 1_700_000_000_000 + Int64(seq)),
                                                 station: UInt32(seq), compDate: .unknown, memo: memo, origin: .user))
        })
        return try FramesBody.encode(header: PushFramesHeader(count: records.count), records: records, writer: RecordFrames.Writer())
    }

    /// A field of /proc/PID/status in bytes (VmHWM: the peak resident set; VmRSS: now).
    static func memory(_ field: String, of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 << 10 }
    }

    @Test("eight pushes decoding to just under 64 MiB each: all stored, peak memory within the bound, another user answered meanwhile",
          arguments: StoreKind.allCases)
    func eightAtOnce(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("push-memory")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        var tokens: [String] = []
        for n in 0..<8 { tokens.append(try await store.addUser("user\(n)")) }
        let bystander = try await store.addUser("bystander")
        let server = try await store.serve()
        defer { server.terminate() }
        // 15,500 edits of about 4,030 bytes decoded: 62.5 MB, under 64 MiB (67.1 MB).
        let edits = 15_500
        var bodies: [[UInt8]] = []
        for n in 0..<8 { bodies.append(try Self.body(device: DeviceID(rawValue: 0x7777_0000_0000_0100 + UInt64(n)), count: edits)) }
        let pid = server.process.processIdentifier
        let atRest = try #require(Self.memory("VmRSS", of: pid))
        let url = server.url

        let started = ContinuousClock.now
        async let statuses = withThrowingTaskGroup(of: Int.self) { group in
            for (token, body) in zip(tokens, bodies) {
                group.addTask {
                    try await testRequest(.POST, url + "/v1/push", token: token, json: body, contentType: FramesBody.mediaType).0
                }
            }
            let statuses = try await group.reduce(into: [Int]()) { $0.append($1) }
            return (statuses, ContinuousClock.now)
        }
        try await Task.sleep(for: .milliseconds(300))
        let asked = ContinuousClock.now
        let (answered, _, _) = try await testRequest(.GET, url + "/v1/status", token: bystander, json: nil)
        let answeredAt = ContinuousClock.now
        let (pushed, pushesDone) = try await statuses
        let peak = try #require(Self.memory("VmHWM", of: pid))

        #expect(pushed == Array(repeating: 200, count: 8), "\(kind): \(pushed)")
        #expect(answered == 200, "\(kind): another user's status")
        print("PushMemoryTests \(kind): at rest \(atRest >> 20) MiB, peak \(peak >> 20) MiB, bystander answered in \(answeredAt - asked), the eight pushes took \(pushesDone - started)")
        #expect(peak <= Self.peakBound, "\(kind): peak \(peak >> 20) MiB over the documented \(Self.peakBound >> 20) MiB (at rest \(atRest >> 20) MiB)")
        // Another user is served while the eight run, not after them (a push holds only its own
        // user's order): answered before the last push, unless they were done before it asked.
        #expect(answeredAt < pushesDone || pushesDone < asked,
                "\(kind): another user waited \(answeredAt - asked), until after the eight pushes (\(pushesDone - started))")
    }
}
