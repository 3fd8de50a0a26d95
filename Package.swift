// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TimerDeck",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RunLoopKit", targets: ["RunLoopKit"]),
        .executable(name: "timerdeck", targets: ["timerdeck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        .executableTarget(
            name: "timerdeck",
            dependencies: [
                "RunLoopKit",
                "TerminalUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RunLoopKitTests", dependencies: ["RunLoopKit"]),
    ],
    swiftLanguageModes: [.v6]
)
