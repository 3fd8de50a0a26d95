// swift-tools-version: 6.1
import PackageDescription

// The libraries' own tests (RunLoopKit, RunLoopKitFoundationCompat, RunLoopKitTesting and the
// documentation's examples) in a package that adds the repository as a client does (`traits: []`),
// so they build none of the dashboard's dependencies: `swift test --package-path LibraryTests`.
// The targets are the repository's own test targets and probes (each directory here is a link to
// it), so the root package's `swift test` and this one run the same files.
let library = "TimerDeck"

let package = Package(
    name: "RunLoopKitLibraryTests",
    dependencies: [
        .package(name: library, path: "..", traits: []),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    ],
    targets: [
        .executableTarget(
            name: "dispatch-order-probe", dependencies: [.product(name: "RunLoopKit", package: library)]),
        .executableTarget(name: "main-queue-probe", dependencies: [.product(name: "RunLoopKit", package: library)]),
        .executableTarget(
            name: "libdispatch-timer-probe", dependencies: [.product(name: "RunLoopKit", package: library)]),
        .executableTarget(
            name: "foundation-compat-probe",
            dependencies: [.product(name: "RunLoopKitFoundationCompat", package: library)]),
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "timeout-allocation-probe",
            dependencies: [.product(name: "RunLoopKit", package: library), "CAllocationCounter"]),
        .executableTarget(name: "readme-example", dependencies: [.product(name: "RunLoopKit", package: library)]),
        // The shared test helpers and the platform layer under them (links to the repository's).
        .target(
            name: "TestSupport", dependencies: [.product(name: "RunLoopKit", package: library)],
            path: "Tests/TestSupport"),
        .testTarget(
            name: "RunLoopKitTests",
            dependencies: [
                .product(name: "RunLoopKit", package: library),
                .product(name: "RunLoopKitFoundationCompat", package: library), "TestSupport",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]),
        .testTarget(
            name: "RunLoopKitFoundationCompatTests",
            dependencies: [.product(name: "RunLoopKitFoundationCompat", package: library), "TestSupport"]),
        .testTarget(
            name: "RunLoopKitTestingTests",
            dependencies: [
                .product(name: "RunLoopKitTesting", package: library), "TestSupport",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]),
        .testTarget(
            name: "DocumentationExampleTests",
            dependencies: [
                .product(name: "RunLoopKitFoundationCompat", package: library),
                .product(name: "RunLoopKitTesting", package: library), "TestSupport",
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            exclude: ["ReadmeExample"]),
    ],
    swiftLanguageModes: [.v6]
)
