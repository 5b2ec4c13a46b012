// swift-tools-version:6.1
import PackageDescription

/// Settings shared by every Swift target: strict, explicit imports keep layers honest.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "oritsubushi-ledger",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "oritsubushi", targets: ["oritsubushi"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C system libraries (Debian: liblz4-dev, libsqlite3-dev).
        .systemLibrary(name: "CLZ4", path: "Sources/CLZ4", pkgConfig: "liblz4",
                       providers: [.apt(["liblz4-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),

        // Layer 1: events, dates, clock, segment codec, log directory.
        .target(name: "LedgerCore", dependencies: ["CLZ4"], swiftSettings: swiftSettings),

        // Layer 2: station catalogue, completions projection, statistics, import/export (SQLite).
        .target(name: "LedgerCatalog", dependencies: ["LedgerCore", "CSQLite"], swiftSettings: swiftSettings),

        // The command-line tool.
        .executableTarget(
            name: "oritsubushi",
            dependencies: [
                "LedgerCore",
                "LedgerCatalog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings),

        // Issue 6, reliability: the crashable in-memory file system and the crash workloads (test
        // support), the process-kill child (Tools/crash-test) and the libFuzzer harness (Tools/fuzz;
        // a plain build links it as an executable that does nothing).
        .target(name: "LedgerTestSupport", dependencies: ["LedgerCore"], swiftSettings: swiftSettings),
        .executableTarget(name: "crash-harness", dependencies: ["LedgerCore", "LedgerTestSupport"],
                          swiftSettings: swiftSettings),
        .executableTarget(name: "FuzzSegment", dependencies: ["LedgerTestSupport"], swiftSettings: swiftSettings),

        .testTarget(name: "LedgerCoreTests", dependencies: ["LedgerCore"],
                    resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(name: "ReliabilityTests", dependencies: ["LedgerCore", "LedgerTestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "CatalogTests", dependencies: ["LedgerCatalog", "LedgerCore", "CSQLite"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "CLITests", dependencies: ["LedgerCore"], swiftSettings: swiftSettings),
    ]
)
