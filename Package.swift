// swift-tools-version: 6.1
import PackageDescription

// TimerDeck is a Linux program: RunLoopKit waits on epoll, eventfd and timerfd, and the dashboard
// draws with ncurses. It declares no Apple platform, and builds with the Swift toolchain for Linux.
// The dashboard's own packages are behind the `Dashboard` trait, on by default: a package that
// adds this one for RunLoopKit alone turns the default traits off (`traits: []`) and then resolves
// and builds only the library's dependency, swift-metrics.
let dashboard: Set<String> = ["Dashboard"]

/// A product that only the dashboard, its tools and its tests use.
func dashboardProduct(_ name: String, package: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: dashboard))
}

/// The dashboard's modules and their tests share a package name of their own, so the compiler
/// keeps them to RunLoopKit's public API: a `package` declaration of the library is out of reach.
/// (`AppPlatform` is among them; the library keeps the system calls it makes itself.)
let dashboardModule: [SwiftSetting] = [.unsafeFlags(["-package-name", "TimerDeckApp"])]

let package = Package(
    name: "TimerDeck",
    products: [
        .library(name: "RunLoopKit", targets: ["RunLoopKit"]),
        .library(name: "RunLoopKitFoundationCompat", targets: ["RunLoopKitFoundationCompat"]),
        .library(name: "RunLoopKitTesting", targets: ["RunLoopKitTesting"]),
        .executable(name: "timerdeck", targets: ["timerdeck"]),
        // Installed as `bin/timerdeck` (the dashboard beside it in `libexec/timerdeck`): answers
        // `timerdeck status` alone, in a few milliseconds, and runs the dashboard for the rest.
        .executable(name: "timerdeck-launcher", targets: ["TimerDeckLauncher"]),
    ],
    traits: [
        .trait(
            name: "Dashboard",
            description: "The timerdeck dashboard, its tools and tests and their packages (GRDB, TOMLKit, "
                + "swift-argument-parser, swift-collections, swift-protobuf, swift-async-algorithms)."
        ),
        .default(enabledTraits: dashboard),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `swift package generate-documentation` for the DocC catalogues; a build plugin, linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // For RunLoopKitTestingTests only: third-party time operators (debounce, throttle, timer)
        // checked exactly under VirtualTime. No library depends on it, so a client's build does not grow.
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    ],
    targets: [
        // ncursesw from Debian's libncurses-dev; the module map links it and the shim asks for the
        // wide-character API (pkg-config's flags are not used: SwiftPM refuses its -D's).
        .systemLibrary(name: "CNcurses"),
        .systemLibrary(name: "CLinuxEvents"),
        // libcurl from Debian's libcurl4-openssl-dev (in Swift's own Debian image): the uploads'
        // HTTP client, with OpenSSL's TLS (a custom CA, a client certificate, verify results that
        // say why a certificate was refused).
        .systemLibrary(name: "CCurl"),
        .target(
            name: "RunLoopKit",
            // CoreMetrics only (no Foundation): the loop reports its health through swift-metrics.
            dependencies: ["CLinuxEvents", "TimeUnits", .product(name: "CoreMetrics", package: "swift-metrics")]
        ),
        // The factors between nanoseconds and the other units, for the library and the dashboard
        // alike (imported `internal` by the library, so a client never sees it).
        .target(name: "TimeUnits"),
        // Foundation's names (`Timer`, `RunLoop`, `Date`, `TimeInterval`) over RunLoopKit, with
        // FoundationEssentials for the date types and never all of Foundation.
        .target(name: "RunLoopKitFoundationCompat", dependencies: ["RunLoopKit", "TimeUnits"]),
        // Tests on virtual time: the process-wide VirtualTime scope (the runtime's global-executor
        // hook), the loop's test operations and registrations, a swift-testing trait and XCTest
        // helpers. It imports the test frameworks, and through them Foundation, which RunLoopKit
        // itself never does. Its C part defines the executable's `clock_gettime`, so that
        // `ContinuousClock.now` and `SuspendingClock.now` read virtual time in a scope, and swaps the
        // runtime's hook: only a process that links this library pays for it.
        .target(name: "RunLoopKitTesting", dependencies: ["RunLoopKit", "CVirtualClockReads"]),
        .target(name: "CVirtualClockReads"),
        // The dashboard's platform layer: files (crash-safe replacement, scratch directories),
        // child processes, and the seeded fault injection its tests fail file calls with.
        .target(
            name: "AppPlatform", dependencies: ["RunLoopKit"], packageAccess: false, swiftSettings: dashboardModule),
        // A run loop timer the dashboard and the uploads drive: start, stop, suspend, move, fire by hand.
        .target(name: "TimerSlots", dependencies: ["RunLoopKit"], packageAccess: false, swiftSettings: dashboardModule),
        .target(
            name: "TerminalUI",
            dependencies: ["CNcurses"],
            packageAccess: false,
            swiftSettings: dashboardModule
        ),
        .target(
            name: "Uploads",
            dependencies: [
                "RunLoopKit",
                "AppPlatform",
                "TimeUnits",
                "TimerSlots",
                dashboardProduct("GRDB", package: "GRDB.swift"),
                dashboardProduct("SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                "CCurl",
            ],
            packageAccess: false,
            swiftSettings: dashboardModule
        ),
        // The timers file's format and `timerdeck status`'s report, with the clock and duration
        // texts they print: no Foundation, so that the quick `timerdeck` answers status alone.
        .target(
            name: "KeptTimers", dependencies: ["AppPlatform", "RunLoopKit", "TimeUnits"], packageAccess: false,
            swiftSettings: dashboardModule),
        .target(
            name: "TimerDeck",
            dependencies: [
                "KeptTimers",
                "RunLoopKit",
                "AppPlatform",
                "TimeUnits",
                "TimerSlots",
                // The lifetime lab's target–action timers (Objective-C's idioms).
                "RunLoopKitFoundationCompat",
                "TerminalUI",
                "Uploads",
                dashboardProduct("TOMLKit", package: "TOMLKit"),
                dashboardProduct("DequeModule", package: "swift-collections"),
            ],
            // The documented config and the sample route (`Resources/` at the top is a link to
            // them), compiled into the code (`PackageResources`): an installed binary needs no
            // files beside it.
            resources: [.embedInCode("Resources/timerdeck.toml"), .embedInCode("Resources/route.gpx")],
            packageAccess: false,
            swiftSettings: dashboardModule
        ),
        .executableTarget(
            name: "timerdeck",
            dependencies: [
                "RunLoopKit",
                "AppPlatform",
                "KeptTimers",
                "TerminalUI",
                "TimerDeck",
                dashboardProduct("ArgumentParser", package: "swift-argument-parser"),
            ],
            packageAccess: false,
            swiftSettings: dashboardModule
        ),
        // The installed `timerdeck`: `status` from the timers file in a few milliseconds (KeptTimers,
        // no Foundation, the Swift runtime linked in statically), the dashboard for everything else.
        .executableTarget(
            name: "TimerDeckLauncher",
            dependencies: ["AppPlatform", "KeptTimers", "RunLoopKit"],
            packageAccess: false,
            swiftSettings: dashboardModule,
            linkerSettings: [.unsafeFlags(["-static-executable"])]
        ),
        .executableTarget(name: "dispatch-order-probe", dependencies: ["RunLoopKit"]),
        .executableTarget(name: "main-queue-probe", dependencies: ["RunLoopKit"]),
        // libdispatch's and Foundation's own main-thread timer tests, one per process, for the tests.
        .executableTarget(name: "libdispatch-timer-probe", dependencies: ["RunLoopKit", "TimeUnits"]),
        .executableTarget(name: "foundation-compat-probe", dependencies: ["RunLoopKitFoundationCompat"]),
        // A TimeoutSet's allocations in steady state, counted by its own malloc (CAllocationCounter),
        // in a process of its own so that nothing else runs on the counting allocator.
        .target(name: "CAllocationCounter"),
        .executableTarget(name: "timeout-allocation-probe", dependencies: ["RunLoopKit", "CAllocationCounter"]),
        // The uploads soak: simulated days of the pipeline against the loopback collector, and a
        // fleet of pipelines into a real Prometheus.
        .executableTarget(
            name: "timerdeck-soak",
            dependencies: [
                "Uploads", "RunLoopKit", "LocalServers", "TimeUnits",
                dashboardProduct("ArgumentParser", package: "swift-argument-parser"),
            ],
            packageAccess: false,
            swiftSettings: dashboardModule
        ),
        // Debian's prometheus and the loopback collector as child processes, for the soak and the
        // uploads tests.
        .target(name: "LocalServers", packageAccess: false, swiftSettings: dashboardModule),
        // Shared by the test targets: child processes, built products, scratch directories,
        // repository files, tags for the slow suites. Over RunLoopKit's platform layer (package API).
        .target(name: "TestSupport", dependencies: ["RunLoopKit", "AppPlatform"], path: "Tests/TestSupport"),
        // Foundation's and libdispatch's own timer checks, and the seeds' examples, in Foundation's names.
        .testTarget(
            name: "RunLoopKitFoundationCompatTests",
            dependencies: ["RunLoopKitFoundationCompat", "RunLoopKit", "TimeUnits", "TestSupport"]
        ),
        // Every code example of the documentation of RunLoopKit, RunLoopKitFoundationCompat and
        // RunLoopKitTesting, compiled.
        .testTarget(
            name: "DocumentationExampleTests",
            dependencies: [
                "RunLoopKit", "RunLoopKitFoundationCompat", "RunLoopKitTesting", "TimeUnits", "TestSupport",
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            exclude: ["ReadmeExample"]
        ),
        // The README's "RunLoopKit in one example", as written: a whole program, so it builds as one.
        .executableTarget(
            name: "readme-example", dependencies: ["RunLoopKit"], path: "Tests/DocumentationExampleTests/ReadmeExample"),
        .testTarget(
            name: "RunLoopKitTests",
            dependencies: [
                "RunLoopKit", "RunLoopKitFoundationCompat", "AppPlatform", "TimeUnits", "TestSupport",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]),
        // VirtualTime, the loop's test operations and registrations, the trait and the XCTest helpers.
        .testTarget(
            name: "RunLoopKitTestingTests",
            dependencies: [
                "RunLoopKitTesting", "RunLoopKit", "TimeUnits", "TestSupport", "CVirtualClockReads",
                dashboardProduct("AsyncAlgorithms", package: "swift-async-algorithms"),
            ]),
        .testTarget(
            name: "TerminalUITests", dependencies: ["TerminalUI", "TestSupport"], packageAccess: false,
            swiftSettings: dashboardModule),
        // Imports the executable too, to check its command-line parsing.
        .testTarget(
            name: "TimerDeckTests",
            dependencies: [
                "TimerDeck", "timerdeck", "KeptTimers", "AppPlatform", "TimeUnits", "TimerSlots", "TestSupport",
            ],
            exclude: ["Snapshots", "Traces"], packageAccess: false, swiftSettings: dashboardModule),
        .testTarget(
            name: "UploadsTests",
            dependencies: [
                "Uploads", "AppPlatform", "TimeUnits", "TestSupport", "LocalServers",
                dashboardProduct("SwiftProtobuf", package: "swift-protobuf"),
            ],
            packageAccess: false,
            swiftSettings: dashboardModule),
    ],
    swiftLanguageModes: [.v6]
)
