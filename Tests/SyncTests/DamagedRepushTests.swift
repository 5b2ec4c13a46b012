import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import NIOHTTP1
import Testing

/// Damage met by a push is damage (Schemas/server-store.md, "Damage"): a device re-pushing
/// events the store holds, one of whose stored frames fails its checksum, is answered that
/// user's 503 (never a 409 about its own request), and so is every later request of the user,
/// `/v1/status` included; other users are served.
@Suite("A push that meets a damaged stored frame")
struct DamagedRepushTests {
    @Test("re-pushing held events over a damaged frame: 503 for that user, /v1/status 503 after, others 200",
          arguments: StoreKind.allCases)
    func repushIsDamage(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("damaged-repush")
        defer { dir.remove() }
        let (store, server, carol, alice) = try await ServerOpsTests.twoUsers(kind, dir, carolStations: [202919, 120004, 1130101])
        defer { server.terminate() }
        _ = try await StoredState.flipByte(of: "carol", in: store)

        let phone = try Ledger.open(directory: carol.ledger)
        let held = try phone.allRecords().filter { $0.eventID?.device == phone.localDevice }.map(WireRecord.init)
        phone.close()
        #expect(held.count >= 3)
        let body = Array(try JSONEncoder().encode(PushRequest(records: held)))
        let (pushed, _, reply) = try await testRequest(.POST, server.url + "/v1/push", token: carol.token, json: body)
        let answer = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any]
        #expect(pushed == 503 && answer?["error"] as? String == "unavailable", "\(kind): \(pushed) \(String(decoding: reply, as: UTF8.self))")
        #expect((answer?["message"] as? String)?.contains("damaged") == true, "\(kind): \(String(decoding: reply, as: UTF8.self))")

        let (status, _, _) = try await testRequest(.GET, server.url + "/v1/status", token: carol.token, json: nil)
        #expect(status == 503, "\(kind): /v1/status after the push met the damage")
        let (others, _, _) = try await testRequest(.GET, server.url + "/v1/status", token: alice.token, json: nil)
        #expect(others == 200, "\(kind): another user is served")
    }
}
