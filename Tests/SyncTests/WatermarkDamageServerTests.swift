import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import Testing

/// Two faults never pass for a tear, on the server's files store through the built binary: a
/// stored user ledger whose newest segment lost 30 bytes (into an acknowledged frame) and whose
/// watermark is lost, short, flipped or stale is damage (Schemas/segment-format.md §5b): `server
/// verify` exits 65 naming the watermark file, and `serve` answers that user 503 on pull and push,
/// logs it at error level and cuts nothing: the segment and its watermark stay as they were.
///
/// Not async: the server runs as a child process (`ServerProcess`, which polls its log), and
/// requests go over a blocking socket (`RawConnection`), so no cooperative thread is blocked.
@Suite("Files store: two faults never pass for a tear")
struct WatermarkDamageServerTests {
    enum Fault: String, CaseIterable {
        case lost, short, flipped, stale
    }

    /// Carol's stored ledger as a server writes it: one segment, pushed in batches of 20.
    /// Returns the segment's path, and the watermark file as it was before the last batch.
    static func storedLedger(in data: String, dir: TemporaryDirectory) throws -> (segment: String, staleWatermark: [UInt8]) {
        let phone = try Ledger.create(directory: dir.sub("carol-phone"), deviceName: "carol-phone")
        defer { phone.close() }
        for n in 0..<60 { _ = try phone.edit(UInt32(100 + n), date: .year(1990 + n % 30), memo: "memo \(n)") }
        try FileManager.default.createDirectory(atPath: data + "/ledgers", withIntermediateDirectories: true)
        let stored = try Ledger.create(directory: data + "/ledgers/carol", deviceName: "oritsubushi sync server")
        defer { stored.close() }
        let records = try phone.allRecords()
        let segment = stored.segments.last!.path
        let watermark = segment + ".durable"
        var stale: [UInt8] = []
        for start in stride(from: 0, to: records.count, by: 20) {
            stale = try PosixFileSystem().readFile(watermark)
            let batch = Array(records[start..<min(start + 20, records.count)])
            _ = try LedgerMerger.apply(try LedgerMerger.prepare(batch, for: stored), to: stored)
        }
        #expect(stored.segments.count == 1)
        return (segment, stale)
    }

    static func apply(_ fault: Fault, to watermark: String, stale: [UInt8]) throws {
        let url = URL(fileURLWithPath: watermark)
        switch fault {
        case .lost: try FileManager.default.removeItem(at: url)
        case .short: try Data(try Data(contentsOf: url).prefix(512)).write(to: url)
        case .flipped:
            var bytes = try Data(contentsOf: url)
            bytes[512 + 26] ^= 0x01
            try bytes.write(to: url)
        case .stale: try Data(stale).write(to: url)
        }
    }

    /// One request over a fresh connection; the status code of the answer.
    static func status(port: Int, _ path: String, token: String, body: String) async throws -> Int? {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        try connection.send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        let answer = await connection.readUntilClose(seconds: 30).text
        return answer.firstMatch(of: /^HTTP\/1\.1 (\d{3})/).flatMap { Int($0.1) }
    }

    @Test("a cut tail with a lost, short, flipped or stale watermark: verify exits 65 naming it; serve answers 503 and cuts nothing",
          arguments: Fault.allCases)
    func cutTailWithWatermarkFault(_ fault: Fault) async throws {
        let dir = try TemporaryDirectory("files-two-faults")
        defer { dir.remove() }
        let data = dir.sub("data")
        let token = try await CLI.addUser("carol", data: data)
        // As an operator's store is: one `serve` made its device claims directory, so a later
        // start opens no ledger (a store without it claims every ledger's devices at start).
        let first = try await ServerProcess(data: data)
        _ = await first.stop()
        first.terminate()
        let (segment, stale) = try Self.storedLedger(in: data, dir: dir)
        let watermark = segment + ".durable"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
        try bytes.dropLast(30).write(to: URL(fileURLWithPath: segment))
        try Self.apply(fault, to: watermark, stale: stale)
        let segments = Path.parent(of: segment)
        let before = try directorySnapshot(segments)

        let verify = try await CLI.run("server", "verify", "--data", data)
        #expect(verify.status == 65, "\(fault): exit \(verify.status): \(verify.stdout) \(verify.stderr)")
        #expect(verify.stderr.contains(watermark), "\(fault): \(verify.stderr)")
        #expect(verify.stderr.split(separator: "\n").count == 1, "one sentence: \(verify.stderr)")

        let server = try await ServerProcess(data: data)
        defer { server.terminate() }
        let pull = try await Self.status(port: server.port, "/v1/pull", token: token, body: #"{"have":{},"have_digests":{}}"#)
        let push = try await Self.status(port: server.port, "/v1/push", token: token, body: #"{"records":[]}"#)
        let log = server.log
        _ = await server.stop()
        #expect(pull == 503 && push == 503, "\(fault): pull \(pull.map(String.init) ?? "-"), push \(push.map(String.init) ?? "-")")
        #expect(log.contains("error") && log.contains("stored ledger damaged") && log.contains(watermark), "\(fault): \(log)")
        let after = try directorySnapshot(segments)
        #expect(after == before, "\(fault): \(snapshotDifferences(before, after))")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: segments)).contains { $0.hasSuffix(".torn") })
    }
}
