// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for Focal, kept in their own package so the main build and tests do not
// compile the benchmark harness. Run them with ./Scripts/bench.
let package = Package(
    name: "FocalBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Focal", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "SessionLog",
            dependencies: [.product(name: "FocalOpLog", package: "Focal")]
        ),
        .executableTarget(name: "oplog-generator", dependencies: ["SessionLog"]),
        .executableTarget(
            name: "record-bench",
            dependencies: [.product(name: "FocalClient", package: "Focal"), .product(name: "FocalOpLog", package: "Focal")]
        ),
        .executableTarget(
            name: "decode-bench",
            dependencies: [.product(name: "FocalOpLog", package: "Focal"), .product(name: "FocalJSON", package: "Focal"), "SessionLog"]
        ),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                .product(name: "FocalEngine", package: "Focal"),
                .product(name: "FocalOpLog", package: "Focal"),
                .product(name: "Benchmark", package: "benchmark"),
                "SessionLog",
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
