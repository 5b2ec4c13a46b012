import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// The catalogue inside the binary (docs/ledger-cli.md, "Catalogue, statistics, import and
/// export"): `init` imports it, `catalog import` without a FILE applies it once, `catalog status`
/// reports it, a copied executable still has it, and a log that refers to a newer catalogue is
/// reported.
@Suite(.serialized) struct BundledCatalogTests {
    @Test func theBundledDumpIsTheOriginal176File() throws {
        let bytes = try BundledCatalog.bytes()
        #expect(bytes.count == 2_475_900)
        #expect(String(decoding: bytes.prefix(100), as: UTF8.self).hasPrefix(#"CREATE TABLE IF NOT EXISTS "lines" ("l_id""#))
        if let original = SharedData.original(176) {
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: original))) == bytes)
        }
    }

    @Test func initImportsTheBundledCatalogueAndCatalogStatusReportsIt() throws {
        let dir = try TemporaryDirectory("bundled")
        defer { dir.remove() }
        let cli = CLIRunner(ledger: dir.sub("a.ledger"))
        let created = try cli.run("init", "--device", "phone")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("catalogue 176 (bundled): 22538 statements, 9780 stations (9520 enabled), 637 lines, 181 operators"))
        let status = try cli.run("catalog", "status", "--json")
        #expect(status.status == 0, "\(status.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(Set(json.keys) == ["version", "source", "stations", "stations_enabled", "lines", "lines_enabled",
                                   "operators", "operators_enabled", "log_version", "behind"])
        #expect(json["version"] as? Int == 176)
        #expect(json["source"] as? String == "bundled")
        #expect(json["stations"] as? Int == 9780)
        #expect(json["stations_enabled"] as? Int == 9520)
        #expect(json["lines"] as? Int == 637)
        #expect(json["lines_enabled"] as? Int == 623)
        #expect(json["operators"] as? Int == 181)
        #expect(json["operators_enabled"] as? Int == 176)
        #expect(json["log_version"] as? Int == 176)
        #expect(json["behind"] as? Bool == false)
        #expect(try cli.run("catalog", "status").stdout.hasPrefix("catalogue 176 (bundled)\nstations   9520 enabled of 9780\n"))

        // Applying it again is a no-op that says so and changes nothing.
        let before = try directorySnapshot(dir.sub("a.ledger"))
        let again = try cli.run("catalog", "import")
        #expect(again.status == 0)
        #expect(again.stdout == "catalogue 176 already applied (the bundled catalogue); nothing to do\n")
        #expect(try directorySnapshot(dir.sub("a.ledger")) == before)
        #expect(try cli.run("catalog", "import", "--version", "177").status == 64)
    }

    @Test func initNoCatalogIsABareLedgerThatCatalogImportCompletes() throws {
        let dir = try TemporaryDirectory("bundled")
        defer { dir.remove() }
        let cli = CLIRunner(ledger: dir.sub("bare.ledger"))
        let created = try cli.run("init", "--no-catalog")
        #expect(created.status == 0)
        #expect(!created.stdout.contains("catalogue"))
        #expect(!FileManager.default.fileExists(atPath: dir.sub("bare.ledger/catalog.sqlite")))
        let bare = try Ledger.open(directory: dir.sub("bare.ledger"))
        let records = try bare.allRecords()
        bare.close()
        #expect(!records.contains { if case .catalogVersion = $0 { true } else { false } })
        let status = try cli.run("catalog", "status", "--json")
        #expect(status.stdout.contains(#""version":null"#) && status.stdout.contains(#""source":null"#))
        #expect(status.stdout.contains(#""log_version":null"#))
        let imported = try cli.run("catalog", "import")
        #expect(imported.stdout.hasPrefix("catalogue 176 (bundled)"))
        // A file import records the file's absolute path as the source.
        let other = CLIRunner(ledger: dir.sub("file.ledger"))
        #expect(try other.run("init", "--no-catalog").status == 0)
        #expect(try other.run("catalog", "import", SharedData.bundled).status == 0)
        #expect(try other.run("catalog", "status", "--json").stdout.contains(#""source":"\#(SharedData.bundled)""#))
    }

    /// The executable copied alone into a folder outside the repository, run from there: the
    /// catalogue is in the binary (no resource bundle, no path into .build).
    @Test func aCopiedBinaryHasItsCatalogueOutsideTheRepository() throws {
        let dir = try TemporaryDirectory("copied")
        defer { dir.remove() }
        let cli = CLIRunner(ledger: nil)
        let result = try cli.runShell("""
            cp "$0" '\(dir.path)/oritsubushi' && cd '\(dir.path)' && ./oritsubushi init --ledger l --device x >/dev/null \
            && ./oritsubushi catalog status --ledger l --json
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""stations_enabled":9520"#))
        #expect(result.stdout.contains(#""source":"bundled""#))
    }

    /// A merge or sync brought a version-177 event (a device with a newer build): commands say
    /// so once on stderr, `catalog status` shows both versions, and importing 177 settles it.
    @Test func aNewerCatalogueInTheLogIsReportedUntilImported() throws {
        let dir = try TemporaryDirectory("newer")
        defer { dir.remove() }
        let cli = CLIRunner(ledger: dir.sub("a.ledger"))
        #expect(try cli.run("init").status == 0)
        let ledger = try Ledger.open(directory: dir.sub("a.ledger"))
        try ledger.appendCatalogVersion(177)
        ledger.close()

        let notice = "warning: the log refers to catalogue 177; this ledger uses 176: run `oritsubushi catalog import stations-177.sql`\n"
        let stats = try cli.run("stats", "prefectures")
        #expect(stats.status == 0)
        #expect(stats.stderr == notice)
        #expect(try cli.run("complete", "300260", "2013-09-01").stderr == notice)
        #expect(try cli.run("stats", "prefectures", "--as-of", "2099-01-01").stderr == notice)
        let status = try cli.run("catalog", "status", "--json")
        #expect(status.stdout.contains(#""version":176"#) && status.stdout.contains(#""log_version":177"#))
        #expect(status.stdout.contains(#""behind":true"#))
        #expect(status.stderr == notice)

        let dump177 = dir.sub("stations-177.sql")
        try FileManager.default.copyItem(atPath: SharedData.bundled, toPath: dump177)
        let imported = try cli.run("catalog", "import", dump177)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.isEmpty)
        #expect(try cli.run("stats", "prefectures").stderr.isEmpty)
        #expect(try cli.run("catalog", "status", "--json").stdout.contains(#""behind":false"#))
        // The bundled catalogue is older now: applying it is a no-op that says so.
        let bundled = try cli.run("catalog", "import")
        #expect(bundled.status == 0)
        #expect(bundled.stdout == "catalogue 177 already applied (a catalogue newer than the bundled 176); nothing to do\n")
    }

    /// A replica made with `--no-catalog` that received a catalogue version by merge is told to
    /// apply the bundled one.
    @Test func aBareReplicaIsToldToImportTheBundledCatalogue() {
        let check = CatalogVersionCheck(applied: 0, logVersion: 176)
        #expect(check.notice == "the log refers to catalogue 176; this ledger has no catalogue: run `oritsubushi catalog import`")
        #expect(CatalogVersionCheck(applied: 176, logVersion: 176).notice == nil)
        #expect(CatalogVersionCheck(applied: 177, logVersion: 176).notice == nil)
        #expect(CatalogVersionCheck(applied: 176, logVersion: nil).notice == nil)
    }
}
