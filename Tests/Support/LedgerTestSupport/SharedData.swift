import Foundation
import LedgerCatalog
import LedgerCore

/// The reference catalogue dumps, all inside the repository: v176 is the catalogue bundled in
/// the binary (`BundledCatalog`), v152 (for the upgrade tests) the fixture
/// `Tests/Fixtures/stations-152.sql.lz4`, one LZ4 frame like the bundled one. Each is written once
/// to a temporary file for the tests that take a path. The original dumps beside the repository
/// (`../shared/data/`, or `ORITSUBUSHI_SHARED_DATA`) are read only to check that both are still
/// byte for byte those dumps, where they are there.
package enum SharedData {
    package static let directory: String = {
        if let override = ProcessInfo.processInfo.environment["ORITSUBUSHI_SHARED_DATA"] { return override }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data").path
    }()

    /// The checkout: Tests/Support/LedgerTestSupport/SharedData.swift → four levels up.
    package static let repositoryRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The dump of `version`: the bundled one for 176, the fixture for 152.
    package static func dump(_ version: Int) -> String {
        switch version {
        case Int(BundledCatalog.version): bundled
        case 152: stations152
        default: fatalError("no catalogue dump \(version) in the repository (176 is bundled, 152 a fixture)")
        }
    }
    package static var stations176: String { bundled }

    /// The v152 fixture, compressed as it is kept in the repository.
    package static var fixture152: String { repositoryRoot.appendingPathComponent("Tests/Fixtures/stations-152.sql.lz4").path }

    /// The v152 dump, decompressed from the fixture (`stations-152.sql` in a temporary folder).
    package static let stations152: String = {
        do {
            let frame = try Data(contentsOf: URL(fileURLWithPath: fixture152))
            return try materialize(try decompress(Array(frame), file: fixture152), version: 152)
        } catch {
            fatalError("cannot decompress \(fixture152): \(error)")
        }
    }()

    /// The original dump `stations-N.sql` beside the repository, when it is there.
    package static func original(_ version: Int) -> String? {
        let path = directory + "/stations-\(version).sql"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The bundled catalogue as a file (`stations-176.sql` in a temporary folder).
    package static let bundled: String = {
        do {
            return try materialize(try BundledCatalog.bytes(), version: Int(BundledCatalog.version))
        } catch {
            fatalError("cannot write the bundled catalogue to a temporary file: \(error)")
        }
    }()

    /// The small catalogue kept in the repository (Tools/sample-catalog-176.sql).
    package static var sample: String { repositoryRoot.appendingPathComponent("Tools/sample-catalog-176.sql").path }

    /// Writes `bytes` as `stations-N.sql` in a temporary folder named with the version, reused by
    /// every run: atomically, once per process, so concurrent test processes never see half a file.
    private static func materialize(_ bytes: [UInt8], version: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oritsubushi-dump-\(version)")
        let path = folder.appendingPathComponent("stations-\(version).sql").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    /// The content of `frame`, one whole LZ4 frame with its content size and checksums (the
    /// shape `LZ4Frame.extent` accepts, as `lz4 -B7 -BX --content-size` writes it).
    package static func decompress(_ frame: [UInt8], file: String) throws -> [UInt8] {
        try frame.withUnsafeBytes { frame in
            guard case .complete(let length, let contentSize) = LZ4Frame.extent(of: frame), length == frame.count else {
                throw LedgerError(.corruption, "not one whole LZ4 frame", file: file)
            }
            let decoder = LZ4FrameDecoder()
            return try withExtendedLifetime(decoder) { Array(try decoder.decompress(frame: frame, contentSize: contentSize)) }
        }
    }
}
