// swift-tools-version: 6.1
import PackageDescription

// The benchmark, a package of its own beside the dashboard's, as swift-nio and swift-collections keep
// theirs: neither the dashboard's build, `install.sh` nor a client of RunLoopKit compiles it. It adds
// the repository as a client does (`traits: []`: the libraries alone) and drives the `timerdeck`
// the dashboard's own build makes (`swift build -c release` at the repository's root).
let package = Package(
    name: "TimerDeckBenchmarks",
    products: [.executable(name: "timerdeck-bench", targets: ["timerdeck-bench"])],
    dependencies: [
        .package(name: "TimerDeck", path: "..", traits: []),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // The benchmark's own pseudo-terminal, spawn and timerfd declarations.
        .systemLibrary(name: "CPseudoTerminal"),
        // libev's and libuv's ABI, for the benchmark to load them at run time (dlopen): the package
        // builds without them.
        .systemLibrary(name: "CTimerLibraries"),
        // The processor's cycle counter, to time single operations (the tails rows).
        .systemLibrary(name: "CCycleCounter"),
        // Its files and child processes are the dashboard's platform layer, and its nanosecond
        // factors the libraries': the same sources, compiled in (`AppPlatform` and `Nanoseconds.swift`
        // are links), since a package that depends on this repository sees its products only.
        .executableTarget(
            name: "timerdeck-bench",
            dependencies: [
                .product(name: "RunLoopKit", package: "TimerDeck"),
                .product(name: "RunLoopKitFoundationCompat", package: "TimerDeck"),
                // `RunLoop.advance(by:)`: the virtual-day and callout rows move virtual time by hand.
                .product(name: "RunLoopKitTesting", package: "TimerDeck"),
                "CPseudoTerminal",
                "CTimerLibraries",
                "CCycleCounter",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // A counting backend reads the loop's own counts of timerfd settings and wake-ups.
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // The test targets' shared helpers and the platform layer under them, the same sources as the
        // dashboard's tests use (`Shared` and `AppPlatform` are links to them).
        .target(
            name: "TestSupport", dependencies: [.product(name: "RunLoopKit", package: "TimerDeck")],
            path: "Tests/TestSupport"),
        // Runs the built timerdeck-bench (and through it the dashboard's timerdeck) as a child process.
        .testTarget(name: "BenchTests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
