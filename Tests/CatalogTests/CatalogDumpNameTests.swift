import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// `catalog import FILE` takes the version from the file name unless `--version N` is given.
@Suite struct CatalogDumpNameTests {
    @Test(arguments: [
        ("stations-176.sql", UInt32(176)), ("/tmp/v2/stations-177-fixed.sql", 177),
        ("dumps/stations177.sql", 177), ("２０２４-stations-9.sql", 9),
    ])
    func theLastRunOfDigitsInTheNameIsTheVersion(path: String, version: UInt32) throws {
        #expect(try CatalogDumpName.version(of: path) == version)
    }

    @Test(arguments: ["stations.sql", "v176/stations.sql", "stations-0.sql", "stations-99999999999.sql"])
    func aNameWithoutAVersionAsksForOne(path: String) throws {
        let error = #expect(throws: LedgerError.self) { try CatalogDumpName.version(of: path) }
        #expect(error?.category == .usage && error?.message.hasSuffix("give --version N") == true)
    }
}
