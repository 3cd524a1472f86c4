// swift-tools-version: 6.1
import PackageDescription

#if os(Linux)
import Glibc
#endif

// Focal: headless UI simulation and focus-path analytics with JavaScript tasks.
//
// One target per concern; dependencies only point "down" this list:
//   FocalJSON        JSON values, a fast parser and writer
//   FocalCore        shared vocabulary: SessionID, SessionJournal, ObservationToken, ResultRecord, shared limits
//   FocalOpLog       the op-log wire format (FocalOpLog.docc/OpLogFormat.md)
//   FocalPatterns    the focus-path pattern language of tasks, matched in linear time
//   FocalEventBus    in-process named events (AQSEvent's model)
//   CJavaScriptCore  the system JavaScriptCore (javascriptcoregtk-4.1)
//   CZlib            the system zlib: gzip request bodies
//   FocalWebSDK      focal.js, the web pages' SDK, as bytes compiled into the binary
//   FocalRuntime     the embedded JavaScript runtime: contexts, CommonJS, console, time limits
//   FocalEngine      the focus-path engine: nodes, patterns, tasks, snapshots, sessions
//   FocalSimulator   a headless UIKit-like simulator (no analytics inside)
//   FocalAnalyzers   analyzers that turn simulator activity into op-log ops
//   FocalScenarios   scenario files: an app description plus a scripted journey
//   FocalDelivery    outbox, flush policies, destinations and adapters
//   FocalClient      what an app sends with: a recorder, a durable queue and a sender to `focal serve`
//   FocalServer      `focal serve`: the HTTP service over an engine pool and the outbox
//   FocalPostgres    the outbox and session journal in a PostgreSQL shared by several instances
//   FocalReplay      the replay of op logs through engines behind `focal replay`, `snapshot` and `check`
//   FocalTesting     test doubles for a user's tests: a manual clock, an event recorder
//   focal            the command-line tool
let package = Package(
    name: "Focal",
    products: [
        .executable(name: "focal", targets: ["focal"]),
        .library(name: "FocalCore", targets: ["FocalCore"]),
        .library(name: "FocalJSON", targets: ["FocalJSON"]),
        .library(name: "FocalOpLog", targets: ["FocalOpLog"]),
        .library(name: "FocalPatterns", targets: ["FocalPatterns"]),
        .library(name: "FocalRuntime", targets: ["FocalRuntime"]),
        .library(name: "FocalEngine", targets: ["FocalEngine"]),
        .library(name: "FocalSimulator", targets: ["FocalSimulator"]),
        .library(name: "FocalAnalyzers", targets: ["FocalAnalyzers"]),
        .library(name: "FocalScenarios", targets: ["FocalScenarios"]),
        .library(name: "FocalEventBus", targets: ["FocalEventBus"]),
        .library(name: "FocalDelivery", targets: ["FocalDelivery"]),
        .library(name: "FocalServer", targets: ["FocalServer"]),
        .library(name: "FocalPostgres", targets: ["FocalPostgres"]),
        .library(name: "FocalClient", targets: ["FocalClient"]),
        .library(name: "FocalTesting", targets: ["FocalTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // postgres-nio's own TLS, named so that FocalPostgres can configure it (sslmode, sslrootcert).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.25.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
    ],
    targets: [
        .target(name: "FocalJSON"),
        .target(name: "FocalCore", dependencies: ["FocalJSON"]),
        .target(name: "FocalOpLog", dependencies: ["FocalCore", "FocalJSON"]),
        .target(name: "FocalPatterns", dependencies: ["FocalCore"]),
        .systemLibrary(
            name: "CJavaScriptCore",
            pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(
            name: "FocalRuntime",
            dependencies: [
                "CJavaScriptCore", "FocalCore", "FocalJSON",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "FocalEngine",
            dependencies: [
                "FocalCore", "FocalRuntime", "FocalOpLog", "FocalJSON", "FocalPatterns",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(name: "FocalSimulator", dependencies: ["FocalCore", "FocalJSON"]),
        .target(name: "FocalAnalyzers", dependencies: ["FocalCore", "FocalSimulator", "FocalOpLog", "FocalJSON"]),
        .target(
            name: "FocalScenarios",
            dependencies: [
                "FocalSimulator", "FocalAnalyzers", "FocalEngine", "FocalOpLog", "FocalPatterns", "FocalJSON",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(name: "FocalEventBus", dependencies: ["FocalCore", "FocalJSON"]),
        .target(name: "FocalTesting", dependencies: ["FocalCore", "FocalEventBus", "FocalJSON"]),
        .target(
            name: "FocalDelivery",
            dependencies: [
                "FocalCore", "FocalJSON", "FocalEventBus", "FocalPatterns",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "FocalClient",
            dependencies: [
                "FocalCore", "FocalOpLog", "FocalJSON", "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The web pages' SDK, compiled into the binary with C23's #embed (`focal serve` serves it): the module and its
        // types are the repository's files, beside the C that embeds the module.
        .target(name: "FocalWebSDK", exclude: ["focal.js", "focal.d.ts"]),
        .target(
            name: "FocalServer",
            dependencies: [
                "FocalCore", "FocalEngine", "FocalDelivery", "FocalOpLog", "FocalJSON", "FocalRuntime", "CZlib", "FocalWebSDK",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "FocalPostgres",
            dependencies: [
                "FocalCore", "FocalDelivery",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "FocalReplay",
            dependencies: [
                "FocalCore", "FocalEngine", "FocalOpLog", "FocalJSON",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // Async functions run where they are called: the replay loop stays on the engine's thread.
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .executableTarget(
            name: "focal",
            dependencies: [
                "FocalCore", "FocalEngine", "FocalRuntime", "FocalOpLog", "FocalScenarios", "FocalDelivery", "FocalJSON",
                "FocalServer", "FocalPostgres", "FocalClient", "FocalReplay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // `focal init`'s files, compiled into the binary: the one source of tasks/focal.d.ts (a link to it).
            resources: [
                .embedInCode("Template/index.js"), .embedInCode("Template/Shop/Detail.js"),
                .embedInCode("Template/scenarios/shop.yaml"), .embedInCode("Template/jsconfig.json"),
                .embedInCode("Template/focal.d.ts"),
            ],
            // Async functions run where they are called: the replay loop stays on the engine's thread.
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")],
            linkerSettings: packedRelocations
        ),
        .testTarget(name: "FocalJSONTests", dependencies: ["FocalJSON"]),
        .testTarget(name: "FocalOpLogTests", dependencies: ["FocalOpLog", "FocalCore", "FocalJSON"]),
        .testTarget(name: "FocalPatternsTests", dependencies: ["FocalPatterns", "FocalCore"]),
        .testTarget(
            name: "FocalRuntimeTests",
            dependencies: [
                "FocalRuntime", "FocalCore", "FocalJSON", "FocalTestSupport", "CJavaScriptCore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "FocalEngineTests",
            dependencies: ["FocalEngine", "FocalCore", "FocalDelivery", "FocalOpLog", "FocalJSON", "FocalPatterns", "FocalTestSupport"]),
        .testTarget(name: "FocalSimulatorTests", dependencies: ["FocalSimulator", "FocalSimulatorTestSupport", "FocalCore", "FocalJSON"]),
        .testTarget(
            name: "FocalAnalyzersTests",
            dependencies: ["FocalAnalyzers", "FocalEngine", "FocalSimulator", "FocalSimulatorTestSupport", "FocalOpLog", "FocalJSON"]),
        .target(name: "FocalSimulatorTestSupport", dependencies: ["FocalSimulator"], path: "Tests/FocalSimulatorTestSupport"),
        .testTarget(
            name: "FocalScenariosTests",
            dependencies: ["FocalScenarios", "FocalEngine", "FocalSimulator", "FocalOpLog", "FocalJSON", "FocalTestSupport"]),
        .testTarget(name: "FocalEventBusTests", dependencies: ["FocalEventBus", "FocalCore", "FocalJSON", "FocalTesting"]),
        // Test support, split so that a test target links only what it tests: the small helpers
        // (logs, processes, temporary directories, the `focal` binary, and FocalTesting's clock and recorder), the
        // loopback collector (Hummingbird) and the throwaway PostgreSQL (PostgresNIO).
        .target(
            name: "FocalTestSupport",
            dependencies: ["FocalTesting", .product(name: "Logging", package: "swift-log")],
            path: "Tests/FocalTestSupport"
        ),
        .target(
            name: "FocalReceiverTestSupport",
            dependencies: [
                "FocalJSON", "FocalTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/FocalReceiverTestSupport"
        ),
        .target(
            name: "FocalPostgresTestSupport",
            dependencies: [
                "FocalPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/FocalPostgresTestSupport"
        ),
        .testTarget(
            name: "FocalDeliveryTests",
            dependencies: [
                "FocalDelivery", "FocalCore", "FocalPostgres", "FocalTestSupport", "FocalTesting", "FocalReceiverTestSupport",
                "FocalPostgresTestSupport", "FocalJSON", "FocalEventBus", "FocalPatterns",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "FocalReplayTests",
            dependencies: ["FocalCore", "FocalReplay", "FocalEngine", "FocalTestSupport"],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .testTarget(name: "FocalCoreTests", dependencies: ["FocalCore", "FocalJSON"]),
        .testTarget(
            name: "FocalCLITests",
            dependencies: [
                "FocalCore", "FocalJSON", "FocalDelivery", "FocalPostgres", "FocalTestSupport", "FocalReceiverTestSupport",
                "FocalPostgresTestSupport",
            ]),
        .testTarget(
            name: "FocalServerTests",
            dependencies: [
                "FocalServer", "FocalCore", "FocalEngine", "FocalDelivery", "FocalTestSupport", "FocalReceiverTestSupport", "FocalJSON",
                // Instances sharing a PostgreSQL store (SharedStoreTests).
                "FocalPostgres", "FocalPostgresTestSupport",
                // Gzip bodies for the tests of compressed requests.
                "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                // The embedding example's own metrics backend.
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(
            name: "FocalClientTests",
            dependencies: ["FocalClient", "FocalCore", "FocalOpLog", "FocalJSON", "FocalTestSupport", "FocalReceiverTestSupport"]
        ),
        .testTarget(
            name: "FocalPostgresTests",
            dependencies: [
                "FocalPostgres", "FocalCore", "FocalDelivery", "FocalPostgresTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    // C23, for FocalWebSDK's #embed.
    cLanguageStandard: .c2x
)

/// How `focal` is linked where the C library can start it so: by the toolchain's LLVM linker, with its relative
/// relocations packed (DT_RELR). The Swift runtime and libraries linked into the binary leave ~154,000 of them; as
/// RELA entries they are 3.7 MB that the dynamic loader reads at every start and that stay resident, packed ~30 KB
/// (the 1M-op replay's peak RSS 64 -> 59 MB; BENCHMARKS.md, stop 44). A binary with packed relocations needs glibc 2.36
/// or later to start, so elsewhere `focal` is linked as before.
var packedRelocations: [LinkerSetting] {
    #if os(Linux)
    var text = [CChar](repeating: 0, count: 64)
    guard confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count) > 0 else { return [] }
    // "glibc 2.36"
    let version = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.split(separator: " ").last ?? ""
    let numbers = version.split(separator: ".").compactMap { Int($0) }
    guard numbers.count >= 2, (numbers[0], numbers[1]) >= (2, 36) else { return [] }
    return [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]
    #else
    return []
    #endif
}
