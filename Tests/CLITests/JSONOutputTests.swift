import Foundation
import LedgerTestSupport
import Testing

/// The single JSON objects of verify, status and conflicts (written through `Encodable` types):
/// their keys in the documented order, strings escaped as before (control characters as
/// `\u00XX`, `/` and non-ASCII as they are), numbers as Swift prints them.
@Suite struct JSONOutputTests {
    /// The object keys of one line of JSON, in the order they appear.
    static func keys(_ json: String) -> [String] {
        json.matches(of: /"([a-z_]+)":/).map { String($0.1) }
    }

    @Test func keysInDocumentedOrderAndStringsEscapedAsBefore() throws {
        let scratch = try TemporaryDirectory("json-output")
        let a = CLIRunner(ledger: scratch.sub("a")), b = CLIRunner(ledger: scratch.sub("b"))
        try a.run("init", "--device", "ph\"one/\\x")
        try b.run("init", "--device", "タブ")
        let memo = "a\u{8}b\u{c}c\"d\\e/é🚃\u{1}"
        #expect(try a.run("complete", "5", "2013", "--memo", memo).status == 0)
        #expect(try b.run("complete", "5", "2014", "--memo", "other").status == 0)
        #expect(try a.run("merge", scratch.sub("b")).status == 0)

        let verify = try a.run("verify", "--json").stdout
        #expect(Self.keys(verify) == ["ok", "segments", "sealed_segments", "frames", "events", "records", "devices",
                                      "bytes_on_disk", "raw_bytes", "compression_ratio", "ignored_checkpoint"])
        #expect(verify.contains("\"ignored_checkpoint\":null}"))
        #expect(verify.contains(/"compression_ratio":\d+\.\d+,/), "a Double prints with a decimal point: \(verify)")

        let status = try a.run("status", "--json").stdout
        let device = ["device", "name", "events", "local"]
        #expect(Self.keys(status) == ["ledger", "ledger_id", "device", "device_name", "events", "records", "segments",
                                      "sealed_segments", "bytes_on_disk", "clock", "devices"] + device + device)
        #expect(status.contains("\"device_name\":\"ph\\\"one/\\\\x\""), "\(status)")
        #expect(status.hasSuffix("}\n") && status.split(separator: "\n").count == 1)

        let conflicts = try a.run("conflicts", "--json").stdout
        let date = ["device", "device_name", "seq", "hlc", "time", "value", "comp_date"]
        let memoSide = Array(date.dropLast())
        #expect(Self.keys(conflicts) == ["count", "conflicts"] + ["station", "field", "winner"] + date + ["loser"] + date
                                          + ["station", "field", "winner"] + memoSide + ["loser"] + memoSide)
        #expect(conflicts.contains(#""value":"a\u0008b\u000cc\"d\\e/é🚃\u0001""#), "\(conflicts)")
        #expect(try a.run("conflicts", "--json", "--station", "6").stdout == "{\"count\":0,\"conflicts\":[]}\n")
    }
}
