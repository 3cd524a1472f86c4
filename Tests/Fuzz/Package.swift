// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for Focal's readers of untrusted input, built with the fuzzer and
// AddressSanitizer by Scripts/fuzz (not part of the main package or its tests).
let package = Package(
    name: "FocalFuzz",
    dependencies: [.package(name: "Focal", path: "../..")],
    targets: [
        .target(name: "CLibFuzzer", path: "CLibFuzzer"),
        .executableTarget(
            name: "oplog-fuzzer",
            dependencies: ["CLibFuzzer", .product(name: "FocalOpLog", package: "Focal"), .product(name: "FocalJSON", package: "Focal")],
            path: "OpLogFuzzer"
        ),
        .executableTarget(
            name: "scenario-fuzzer",
            dependencies: ["CLibFuzzer", .product(name: "FocalScenarios", package: "Focal")],
            path: "ScenarioFuzzer"
        ),
    ]
)
