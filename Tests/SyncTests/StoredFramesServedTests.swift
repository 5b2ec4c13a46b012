import LedgerCore
import LedgerSync
import LedgerTestSupport
import SyncServer
import Testing

/// A files-store pull serves stored frames as they are (Schemas/sync-frames.md "Served"): a
/// whole frame the client lacks entirely goes out byte for byte; any other frame's lacked records
/// are encoded again. Either way a page holds exactly the records the client lacks, in log order.
@Suite("Stored frames served as they are")
struct StoredFramesServedTests {
    static let phone = FramesStoredAsTheyComeTests.phone

    /// A store whose user alice holds `pushed` (taken whole, so stored as it came).
    static func store(holding pushed: EncodedRecords, in dir: TemporaryDirectory) async throws -> FilesStore {
        try await FilesStoreAdministration(dataDirectory: dir.sub("data")).addUser("alice", tokenHash: String(repeating: "a", count: 64), now: 0)
        let store = try FilesStore(dataDirectory: dir.sub("data"))
        let reply = try await store.push(user: "alice", records: pushed)
        #expect(reply.appended == pushed.count, "every record appended")
        return store
    }

    /// Pulls page after page with `limit`, returning every page's records.
    static func pullAll(_ store: FilesStore, have: [DeviceID: UInt64], limit: Int) async throws -> [EncodedRecords] {
        var pages: [EncodedRecords] = []
        var cursor: UInt64?
        while true {
            let request = PullRequest(have: WireVersionVector.encode(have), cursor: cursor, limit: limit, haveDigests: [:])
            let answer = try await store.pullAnswer(user: "alice", request: request, as: .frames)
            // What goes on the wire decodes to the page's records.
            let body = try answer.frames(writer: RecordFrames.Writer())
            let decoded = try FramesBody.decode(body, as: PullFramesHeader.self, maximumRecords: 1_000_000).1
            #expect(decoded.records == answer.records.records)
            pages.append(answer.records)
            cursor = answer.page.cursor
            if !answer.page.more { return pages }
            #expect(pages.count < 1_000, "pages end")
        }
    }

    @Test("a device joining gets the stored frames byte for byte")
    func joiningDevice() async throws {
        let dir = try TemporaryDirectory("served")
        defer { dir.remove() }
        let pushed = try FramesStoredAsTheyComeTests.received(1...30_000)
        let stored = try #require(pushed.frames)
        #expect(stored.frameCount >= 2)
        let store = try await Self.store(holding: pushed, in: dir)
        defer { Task { await store.close() } }
        let pages = try await Self.pullAll(store, have: [:], limit: 100_000)
        #expect(pages.count == 1)
        let page = try #require(pages.first)
        #expect(page.frames?.bytes == stored.bytes, "the frames as pushed and stored, not encoded again")
        #expect(page.records == pushed.records)
    }

    @Test("lacked records in log order at every page size, whole frames or not",
          arguments: [(have: UInt64(0), limit: 100_000), (0, 7_000), (0, 45_000), (12_345, 100_000), (12_345, 9_999), (29_990, 4_001)])
    func everyPageSize(have phoneHas: UInt64, limit: Int) async throws {
        let dir = try TemporaryDirectory("served-pages")
        defer { dir.remove() }
        let pushed = try FramesStoredAsTheyComeTests.received(1...30_000)
        let store = try await Self.store(holding: pushed, in: dir)
        defer { Task { await store.close() } }
        let have: [DeviceID: UInt64] = phoneHas > 0 ? [Self.phone: phoneHas] : [:]
        let pages = try await Self.pullAll(store, have: have, limit: limit)
        let expected = pushed.records.filter { record in
            guard let id = record.eventID else { return true }
            return id.seq > have[id.device] ?? 0
        }
        #expect(pages.flatMap(\.records) == expected)
        #expect(pages.allSatisfy { $0.count <= limit })
        // A page ends short only to keep the next frame whole: the page after it is that frame.
        for (page, next) in zip(pages, pages.dropFirst()) where page.count < limit {
            #expect(next.frames != nil, "\(pages.map(\.count))")
        }
        if phoneHas > 0 {
            #expect(pages.first?.frames == nil, "the first frame, which the client partly holds, is encoded again")
        } else if limit >= 100_000 {
            #expect(pages.contains { $0.frames != nil }, "whole frames that fit a page go as they are")
        }
    }
}
