import Foundation
import LedgerTestSupport
import Testing

/// Carry-overs across two replicas through `merge` (Schemas/projection.md §4): a bare replica
/// that imports a v152 device's data and a replica on catalogue 176 that merges it both end with
/// the carried-over completions, and with equal exports, whichever imports the catalogue when.
@Suite("Carry-overs across replicas (end to end)")
struct CarryOverReplicaTests {
    @Test func aMergeBringingASourceCarriesItAndReplicasAgree() async throws {
        let dir = try TemporaryDirectory("cli-carry")
        defer { dir.remove() }
        let a = dir.sub("a"), b = dir.sub("b")
        try await CLI.run("init", "--ledger", a, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("init", "--ledger", b, "--device", "tablet").expectSuccess()
        let data = "304383\t20100501\t1300000000\t北口\n301887\t20110600\t1310000000\t\n"
        try data.write(toFile: dir.sub("v152.tsv"), atomically: true, encoding: .utf8)
        try await CLI.run("import", "oritsubushi-tsv", dir.sub("v152.tsv"), "--ledger", a).expectSuccess()
        #expect(!(try await CLI.run("export", "--format", "tsv", "--ledger", a).stdout.contains("306021\t")))  // no catalogue yet

        // The merge brings the sources; the receiver owes their carry-overs and appends them.
        try await CLI.run("merge", a, "--ledger", b).expectSuccess()
        let exportB = try await CLI.run("export", "--format", "tsv", "--ledger", b).stdout
        #expect(exportB.contains("306021\t20100501\t1300000000\t北口\n"))
        #expect(exportB.contains("306095\t20110600\t1310000000\t\n"))

        // The bare replica imports the catalogue later: the same projection.
        try await CLI.run("catalog", "import", "--ledger", a).expectSuccess()
        #expect(try await CLI.run("export", "--format", "tsv", "--ledger", a).stdout == exportB)
        for (into, from) in [(a, b), (b, a)] { try await CLI.run("merge", from, "--ledger", into).expectSuccess() }
        #expect(try await CLI.run("export", "--format", "tsv", "--ledger", a).stdout == exportB)
        #expect(try await CLI.run("export", "--format", "tsv", "--ledger", b).stdout == exportB)
    }
}
