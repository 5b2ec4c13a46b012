import Foundation
import LedgerTestSupport
import Testing

/// The single JSON objects of verify, status and conflicts (`Encodable` types written by
/// `JSONEncoder`): one line each, every documented key present with sorted keys, and strings
/// that decode to exactly what was recorded (quotes, backslashes, control characters, `/`,
/// non-ASCII).
@Suite struct JSONOutputTests {
    /// The object keys of one line of JSON, in the order they appear.
    static func keys(_ json: String) -> [String] {
        json.matches(of: /"([a-z_]+)":/).map { String($0.1) }
    }

    static func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "not an object: \(json)")
    }

    @Test func documentedKeysSortedAndStringsRoundTrip() throws {
        let scratch = try TemporaryDirectory("json-output")
        let a = CLIRunner(ledger: scratch.sub("a")), b = CLIRunner(ledger: scratch.sub("b"))
        let deviceName = "ph\"one/\\x"
        try a.run("init", "--device", deviceName, "--no-catalog")
        try b.run("init", "--device", "タブ", "--no-catalog")
        let memo = "a\u{8}b\u{c}c\"d\\e/é🚃\u{1}"
        #expect(try a.run("complete", "5", "2013", "--memo", memo).status == 0)
        #expect(try b.run("complete", "5", "2014", "--memo", "other").status == 0)
        #expect(try a.run("merge", scratch.sub("b")).status == 0)

        let verify = try a.run("verify", "--json").stdout
        #expect(Self.keys(verify) == ["bytes_on_disk", "compression_ratio", "devices", "events", "frames",
                                      "ignored_checkpoint", "ok", "raw_bytes", "records", "sealed_segments", "segments"])
        let verified = try Self.object(verify)
        #expect(verified["ok"] as? Bool == true)
        #expect(verified["ignored_checkpoint"] is NSNull)
        #expect(verified["compression_ratio"] is NSNumber)

        let status = try a.run("status", "--json").stdout
        let device = ["device", "events", "local", "name"]
        #expect(Self.keys(status) == ["bytes_on_disk", "clock", "device", "device_name", "devices"] + device + device
                                      + ["events", "last_sync", "ledger", "ledger_id", "pending_push", "records", "sealed_segments",
                                         "segments", "server"])
        #expect(try Self.object(status)["device_name"] as? String == deviceName)
        #expect(status.hasSuffix("}\n") && status.split(separator: "\n").count == 1)

        let conflicts = try a.run("conflicts", "--json").stdout
        let object = try Self.object(conflicts)
        #expect(object["count"] as? Int == 2)
        let items = try #require(object["conflicts"] as? [[String: Any]])
        let memoConflict = try #require(items.first { $0["field"] as? String == "memo" })
        let sides = [memoConflict["winner"], memoConflict["loser"]].compactMap { $0 as? [String: Any] }
        #expect(Set(sides.compactMap { $0["value"] as? String }) == [memo, "other"], "\(conflicts)")
        let dateConflict = try #require(items.first { $0["field"] as? String == "date" })
        let winner = try #require(dateConflict["winner"] as? [String: Any])
        #expect(Set(winner.keys) == ["device", "device_name", "seq", "hlc", "time", "value", "comp_date"])
        #expect(Set((sides.first ?? [:]).keys) == ["device", "device_name", "seq", "hlc", "time", "value"])
        #expect(try a.run("conflicts", "--json", "--station", "6").stdout == "{\"conflicts\":[],\"count\":0}\n")
    }
}
