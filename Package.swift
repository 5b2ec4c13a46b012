// swift-tools-version:6.1
import Foundation
import PackageDescription

/// Settings shared by every Swift target: strict, explicit imports keep layers honest.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The package directory, for the C target that embeds the catalogue by absolute path.
let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

let package = Package(
    name: "oritsubushi-ledger",
    products: [
        .executable(name: "oritsubushi", targets: ["oritsubushi"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // SHA-256 for token hashes (already compiled in this graph through the HTTP stack).
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        // SQLite access for the catalogue and projection files (against the system libsqlite3).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The PostgreSQL store of the sync server (several `serve` instances on one database).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The sync server's /metrics (Prometheus text format).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // NIOCore (ByteBuffer, channel handlers), also used through Hummingbird and postgres-nio.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // NIOHTTPTypes: the request parts a channel handler of the server sees.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // NIOSSL: the PostgreSQL store's TLS configuration (already in the graph through postgres-nio).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // gzip for the web app's files and the catalogue document on the wire (zlib).
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // HTTPTypes: the request and response heads those channel handlers read and write.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // C system library (Debian: liblz4-dev). SQLite comes through GRDB (libsqlite3-dev).
        .systemLibrary(name: "CLZ4", path: "Sources/CLZ4", pkgConfig: "liblz4",
                       providers: [.apt(["liblz4-dev"])]),

        // Layer 1: events, dates, clock, segment codec, log directory.
        .target(name: "LedgerCore", dependencies: ["CLZ4"], swiftSettings: swiftSettings),

        // The bundled station catalogue (v176, LZ4), linked into the binary with .incbin so that a
        // copied executable needs no resource folder (Bundle.module does not survive that).
        .target(name: "CCatalogData", exclude: ["stations-176.sql.lz4"],
                cSettings: [.define("CATALOG_FILE",
                                    to: "\"\(packageDirectory)/Sources/CCatalogData/stations-176.sql.lz4\"")]),

        // The phone web app (Sources/WebApp/app/: HTML, CSS, JavaScript modules, manifest, service
        // worker, icons, the base map) and the report's files (Sources/ReportAssets/report/),
        // embedded into the binary at build time by the EmbedFolders plugin, which declares every
        // file as an input: an edited, added or removed file is embedded again by the next build,
        // and a copied executable needs no other file. The package.json beside each folder only
        // tells node (Tools/webapp-test) that the scripts are ES modules.
        .target(name: "WebAppFiles", path: "Sources/WebApp", exclude: ["app", "package.json"], swiftSettings: swiftSettings,
                plugins: ["EmbedFolders"]),
        .target(name: "ReportFiles", path: "Sources/ReportAssets", exclude: ["report", "package.json"], swiftSettings: swiftSettings,
                plugins: ["EmbedFolders"]),
        .plugin(name: "EmbedFolders", capability: .buildTool(), dependencies: ["folder-embedder"]),
        .executableTarget(name: "folder-embedder", path: "Tools/folder-embedder", swiftSettings: swiftSettings),

        // Layer 2: station catalogue, completions projection, statistics, import/export (SQLite).
        .target(name: "LedgerCatalog",
                dependencies: ["LedgerCore", "CCatalogData", .product(name: "GRDB", package: "GRDB.swift"),
                               // sqlite3's C API for the bulk insert and the file checks.
                               .product(name: "GRDBSQLite", package: "GRDB.swift")],
                swiftSettings: swiftSettings),
        // Layer 3: what the catalogue looks like to a person: map pins, nearby lines, GeoJSON and the
        // HTML report (docs/development.md "Layout"). Nothing below it depends on it.
        .target(name: "LedgerViews", dependencies: ["LedgerCore", "LedgerCatalog", "ReportFiles"], swiftSettings: swiftSettings),
        // Synthetic, reproducible histories for benchmarks and demos (`oritsubushi generate`).
        .target(name: "LedgerGenerator", dependencies: ["LedgerCore"], swiftSettings: swiftSettings),

        // Multi-device merge: set union of events, version vectors, conflicts (Schemas/merge.md).
        .target(name: "LedgerSync", dependencies: ["LedgerCore", .product(name: "Crypto", package: "swift-crypto")],
                swiftSettings: swiftSettings),
        // The sync server (Schemas/sync-api.yaml) and its HTTP client.
        .target(
            name: "SyncServer",
            dependencies: [
                "LedgerCore", "LedgerSync", "WebAppFiles",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                // KDF.Scrypt: pairing codes at rest (PairingCode+StoredKey.swift).
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // NIOLockedValueBox, not Synchronization.Mutex, for every lock that threads
                // contend for: ThreadSanitizer sees its pthread mutex (RELIABILITY.md).
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),  // HTTP10ConnectionClose
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        // The sync server's PostgreSQL store (Schemas/server-store.md): the storage protocol of
        // SyncServer on postgres-nio, for deployments of several `serve` instances.
        .target(
            name: "SyncServerPostgres",
            dependencies: [
                "LedgerCore", "LedgerSync", "SyncServer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                // NIOConnectionError: a refused connection named at start (PostgresErrorClass).
                .product(name: "NIOPosix", package: "swift-nio"),
                // TLS to the database (`sslmode`, `sslrootcert`), the library postgres-nio uses.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "SyncClient",
            dependencies: [
                "LedgerCore", "LedgerSync",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),

        // The command-line tool.
        .executableTarget(
            name: "oritsubushi",
            dependencies: [
                "LedgerCore",
                "LedgerCatalog",
                "LedgerViews",
                "LedgerGenerator",
                "LedgerSync", "SyncServer", "SyncServerPostgres", "SyncClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            // The ORITSUBUSHI_SIMULATE_FAULT hook (Testing/FaultInjectingFileSystem.swift) exists
            // only in debug builds, which the end-to-end tests run.
            swiftSettings: swiftSettings + [.define("ORITSUBUSHI_FAULT_HOOKS", .when(configuration: .debug))]),

        // Tools/bench's measuring helper: the SQLite and JSON Lines baselines and our replay and
        // append, timed in one process on the same events.
        // Only Tools/bench-baseline calls SQLite's C API directly (its plain-table baseline).
        .systemLibrary(name: "CSQLite", path: "Tools/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(name: "bench-baseline", dependencies: ["LedgerCore", "LedgerGenerator", "CSQLite"],
                          path: "Tools/bench-baseline", swiftSettings: swiftSettings),

        // Test support, outside Sources/: the crashable in-memory file system, the crash workloads,
        // the fuzz checks, the CLI runner and temporary directories, shared by every test target and
        // by the tools below.
        .target(name: "LedgerTestSupport", dependencies: ["LedgerCore", "LedgerCatalog", "LedgerSync", "LedgerGenerator"],
                path: "Tests/Support/LedgerTestSupport", swiftSettings: swiftSettings),

        // Tools, outside Sources/: the process-kill child (Tools/crash-test), the server under load
        // and faults (the load driver, also run by a bounded test, and Tools/load's executable), and
        // the libFuzzer harnesses (Tools/fuzz; a plain build links each as an executable that does
        // nothing).
        // CPU time of the sync API's JSON coding, Foundation against WireJSON (BENCHMARKS.md).
        .executableTarget(name: "wire-json-bench", dependencies: ["LedgerSync"],
                          path: "Tools/wire-json-bench", swiftSettings: swiftSettings),
        .executableTarget(name: "crash-harness", dependencies: ["LedgerCore", "LedgerTestSupport"],
                          path: "Tools/crash-harness", swiftSettings: swiftSettings),
        .target(name: "LedgerLoad",
                dependencies: ["LedgerCore", "LedgerSync", "SyncClient", "LedgerTestSupport",
                               "SyncServer", "SyncServerPostgres",  // --registered-users: the stores' administration API
                               .product(name: "AsyncHTTPClient", package: "async-http-client"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "Logging", package: "swift-log")],
                path: "Tools/load-driver/LedgerLoad", swiftSettings: swiftSettings),
        .executableTarget(name: "load-generator",
                          dependencies: ["LedgerLoad", .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Tools/load-driver/load-generator", swiftSettings: swiftSettings),
        .executableTarget(name: "FuzzSegment", dependencies: ["LedgerTestSupport"],
                          path: "Tools/fuzz-harnesses/FuzzSegment", swiftSettings: swiftSettings),
        .executableTarget(name: "FuzzCatalogDump", dependencies: ["LedgerTestSupport"],
                          path: "Tools/fuzz-harnesses/FuzzCatalogDump", swiftSettings: swiftSettings),
        .executableTarget(name: "FuzzTSV", dependencies: ["LedgerTestSupport"],
                          path: "Tools/fuzz-harnesses/FuzzTSV", swiftSettings: swiftSettings),
        .executableTarget(name: "FuzzSyncRequest", dependencies: ["LedgerTestSupport"],
                          path: "Tools/fuzz-harnesses/FuzzSyncRequest", swiftSettings: swiftSettings),

        .testTarget(name: "LedgerCoreTests", dependencies: ["LedgerCore", "LedgerTestSupport"],
                    exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(name: "LedgerGeneratorTests", dependencies: ["LedgerGenerator", "LedgerCore", "LedgerTestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "LedgerViewsTests", dependencies: ["LedgerViews", "LedgerCatalog", "LedgerCore"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "CatalogTests",
                    dependencies: ["LedgerCatalog", "LedgerCore", "LedgerTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
                    swiftSettings: swiftSettings),
        // The conformance corpus (Conformance/): the rules the phone app implements again in
        // JavaScript, generated by the Swift code and checked here and by Tests/WebApp.
        .testTarget(name: "ConformanceTests",
                    dependencies: ["LedgerCatalog", "LedgerCore", "LedgerSync", "LedgerGenerator",
                                   "SyncClient",  // encryption.jsonl's sealed device names (DeviceNameSealing)
                                   .product(name: "Crypto", package: "swift-crypto")],  // encryption.jsonl's forged seals
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReliabilityTests", dependencies: ["LedgerCore", "LedgerCatalog", "LedgerTestSupport",
                                                     "LedgerSync", "SyncServer"],  // the files store's crash test
                    swiftSettings: swiftSettings),
        .testTarget(name: "CLITests", dependencies: ["oritsubushi", "LedgerCore", "LedgerCatalog", "LedgerTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SyncTests",
            dependencies: [
                "LedgerCore", "LedgerSync", "SyncServer", "SyncServerPostgres", "SyncClient", "LedgerLoad",
                "LedgerGenerator",  // PostgresStoreTests: a log of several pull spans
                "oritsubushi",  // the end-to-end tests run the built executable
                "LedgerTestSupport",  // CLIRunner, directorySnapshot
                .product(name: "Crypto", package: "swift-crypto"),  // the service worker's version, computed apart
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),  // PostgresTLSTests: what NIOSSL is told to check
            ],
            swiftSettings: swiftSettings),
    ]
)

// ThreadSanitizer's build (Tools/ci-sanitizers) runs only the concurrency suites: with
// ORITSUBUSHI_TEST_TARGETS (a comma-separated list of test targets) the other test targets and
// the tools no test in those targets starts (the baselines, the crash harness, the fuzzers) are
// left out of the manifest, so that an instrumented build compiles only what its suites run
// (RELIABILITY.md "How long the tests take"). A plain build declares everything.
if let wanted = Context.environment["ORITSUBUSHI_TEST_TARGETS"] {
    let kept = Set(wanted.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    let toolsNoKeptTestStarts: Set<String> = [
        "bench-baseline", "wire-json-bench", "crash-harness", "FuzzSegment", "FuzzCatalogDump", "FuzzTSV", "FuzzSyncRequest",
    ]
    package.targets.removeAll { target in
        target.type == .test ? !kept.contains(target.name) : toolsNoKeptTestStarts.contains(target.name)
    }
}

// The package-benchmark suite (Benchmarks/LedgerBenchmarks), only when asked for, so that a plain
// build and CI never resolve or build the benchmark plugin and its dependencies (hummingbird gates
// its benchmarks the same way): ORITSUBUSHI_BENCHMARKS=1 swift package benchmark
if Context.environment["ORITSUBUSHI_BENCHMARKS"] != nil {
    package.dependencies.append(
        // The default traits need swift-runtime-interposer, which this machine's mirror lacks;
        // MallocInterposer is what counts allocations.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets.append(
        .executableTarget(
            name: "LedgerBenchmarks",
            dependencies: [
                "LedgerCore", "LedgerGenerator", "LedgerCatalog", "LedgerSync",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LedgerBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]))
}
