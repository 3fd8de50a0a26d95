// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TimerDeck",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RunLoopKit", targets: ["RunLoopKit"]),
        .executable(name: "timerdeck", targets: ["timerdeck"]),
        .executable(name: "timerdeck-bench", targets: ["timerdeck-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CNcurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        .systemLibrary(name: "CLinuxEvents"),
        .target(
            name: "RunLoopKit",
            dependencies: ["CLinuxEvents"]
        ),
        .target(
            name: "TerminalUI",
            dependencies: ["CNcurses"]
        ),
        .target(
            name: "Uploads",
            dependencies: [
                "RunLoopKit",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "TimerDeck",
            dependencies: [
                "RunLoopKit",
                "TerminalUI",
                "Uploads",
                "TOMLKit",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "timerdeck",
            dependencies: [
                "RunLoopKit",
                "TerminalUI",
                "TimerDeck",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "timerdeck-bench",
            dependencies: [
                "RunLoopKit",
                "timerdeck",
                "CLinuxEvents",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "dispatch-order-probe", dependencies: ["RunLoopKit"]),
        // The uploads soak: simulated days of the pipeline against the loopback collector.
        .executableTarget(
            name: "timerdeck-soak",
            dependencies: ["Uploads", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "RunLoopKitTests", dependencies: ["RunLoopKit"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"]),
        .testTarget(name: "TimerDeckTests", dependencies: ["TimerDeck"], exclude: ["Fixtures"]),
        .testTarget(name: "UploadsTests", dependencies: ["Uploads"]),
        // Runs the built timerdeck-bench (and through it timerdeck) as a child process.
        .testTarget(name: "BenchTests"),
    ],
    swiftLanguageModes: [.v6]
)
