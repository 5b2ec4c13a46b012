import LedgerCore
import LedgerSync
import SyncClient
import Testing
import LedgerTestSupport

/// What `sync` reports and leaves behind, however little of the log it reads: the new
/// conflicts (found as pages append into an empty ledger, by one scan otherwise), the knowledge
/// mark it owes, and a server holding every event afterwards.
@Suite("Sync reports")
struct SyncReportTests {
    @Test("a sync reports exactly the conflicts it created, into an empty ledger and into one holding events",
          arguments: [false, true], [0, 10_000])
    func newConflictsAreExact(framed: Bool, shortLog: UInt64) async throws {
        func session(_ token: String, _ server: TestServer) throws -> SyncSession {
            var session = try server.session(token)
            session.shortLog = shortLog
            return session
        }
        let dir = try TemporaryDirectory("report")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"), offersFrames: framed)
        let token = try server.addUser("alice")
        let a = try Ledger.create(directory: dir.sub("a"), deviceName: "a")
        let b = try Ledger.create(directory: dir.sub("b"), deviceName: "b")
        let empty = try Ledger.create(directory: dir.sub("empty"), deviceName: "empty")
        let holding = try Ledger.create(directory: dir.sub("holding"), deviceName: "holding")
        defer { a.close(); b.close(); empty.close(); holding.close() }
        // Concurrent edits of the same stations: conflicts once both are on the server.
        for station in UInt32(1)...6 {
            _ = try a.edit(station, date: .day(2020, 1, Int(station)))
            _ = try b.edit(station, date: .day(2021, 2, Int(station)))
        }
        _ = try await session(token, server).run(a)
        let toB = try await session(token, server).run(b)
        #expect(!toB.newConflicts.isEmpty)
        _ = try holding.edit(3, date: .year(1999))

        let intoEmpty = try await session(token, server).run(empty)
        #expect(intoEmpty.pulled > 0)
        #expect(Set(intoEmpty.newConflicts) == Set(try empty.conflicts()))
        #expect(intoEmpty.newConflicts.count >= 6)

        let before = Set(try holding.conflicts())
        let intoHolding = try await session(token, server).run(holding)
        #expect(Set(intoHolding.newConflicts) == Set(try holding.conflicts()).subtracting(before))
        #expect(intoHolding.newConflicts.contains { $0.station == 3 })
        await server.stop()
    }

    @Test("a device that pulls a long log pushes back its knowledge mark, and the server then holds all it holds",
          arguments: [false, true])
    func theMarkReachesTheServer(framed: Bool) async throws {
        let dir = try TemporaryDirectory("mark")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"), offersFrames: framed)
        let token = try server.addUser("alice")
        let a = try Ledger.create(directory: dir.sub("a"), deviceName: "a")
        let fresh = try Ledger.create(directory: dir.sub("fresh"), deviceName: "fresh")
        defer { a.close(); fresh.close() }
        for station in UInt32(1)...300 { _ = try a.edit(station, date: .unknown) }
        _ = try await server.session(token).run(a)
        let report = try await server.session(token).run(fresh)
        #expect(report.pulled == 300)
        #expect((fresh.versionVector[fresh.localDevice] ?? 0) == 1, "one knowledge mark")
        #expect(report.serverHas == fresh.versionVector.filter { $0.value > 0 })
        // The mark travelled with the device's name: another device learns both.
        let other = try Ledger.create(directory: dir.sub("other"), deviceName: "other")
        defer { other.close() }
        _ = try await server.session(token).run(other)
        #expect(other.versionVector[fresh.localDevice] == 1)
        #expect(other.deviceNames[fresh.localDevice]?.name == "fresh")
        await server.stop()
    }
}
