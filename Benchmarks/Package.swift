// swift-tools-version:6.1
import PackageDescription

// The package-benchmark suite (ordo-one/benchmark), kept in its own package so that the root
// package and CI never build the benchmark plugin and its dependencies.
// Run from this folder: swift package benchmark --no-progress --format markdown
let package = Package(
    name: "oritsubushi-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "oritsubushi-ledger", path: ".."),
        // The default traits need swift-runtime-interposer, which this machine's mirror lacks;
        // MallocInterposer is what counts allocations.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "LedgerBenchmarks",
            dependencies: [
                .product(name: "_LedgerBenchmarkSupport", package: "oritsubushi-ledger"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LedgerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
