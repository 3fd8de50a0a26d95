#!/usr/bin/env bash
# Runs swift-corelibs-foundation's own Tests/Foundation/TestTimer.swift and TestRunLoop.swift, as
# they are, on RunLoopKitFoundationCompat: in a package of its own, in a scratch directory, whose
# test target holds the two files, untouched, and one file of imports in place of Foundation's own
# Imports.swift (below). Nothing of them is kept.
#
# Usage: Tests/Upstream/foundation-tests.sh FOUNDATION [REVISION]
#   FOUNDATION  a clone (or a bare git directory) of https://github.com/swiftlang/swift-corelibs-foundation
#   REVISION    the revision to take the files from (HEAD by default)
set -euo pipefail
repository=$(cd "$(dirname "$0")/../.." && pwd)
foundation=${1:?usage: Tests/Upstream/foundation-tests.sh FOUNDATION [REVISION]}
revision=${2:-HEAD}
git_dir=$(git -C "$foundation" rev-parse --git-dir 2>/dev/null) || {
    echo "foundation-tests: $foundation is not a git clone of swift-corelibs-foundation" >&2
    exit 2
}
case $git_dir in /*) ;; *) git_dir=$foundation/$git_dir ;; esac
commit=$(git --git-dir="$git_dir" rev-parse --verify "$revision^{commit}")

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/Tests/FoundationTests"
for file in TestTimer.swift TestRunLoop.swift; do
    git --git-dir="$git_dir" show "$commit:Tests/Foundation/$file" >"$scratch/Tests/FoundationTests/$file"
done

# In place of Foundation's Imports.swift. XCTest brings all of Foundation on Linux, so its Timer,
# RunLoop and Port are visible beside this layer's: the module's own type aliases win over every
# import, in every file of the target. Foundation's Port posts its invalidation through
# NotificationCenter, which lives in Foundation, not in FoundationEssentials; the test's port posts
# Foundation's name.
cat >"$scratch/Tests/FoundationTests/Imports.swift" <<'SWIFT'
@_exported import RunLoopKitFoundationCompat
@_exported import RunLoopKitTesting
@_exported import XCTest

typealias Port = RunLoopKitFoundationCompat.Port
typealias RunLoop = RunLoopKitFoundationCompat.RunLoop
typealias Timer = RunLoopKitFoundationCompat.Timer

extension RunLoopKitFoundationCompat.Port {
    static var didBecomeInvalidNotification: NSNotification.Name { Foundation.Port.didBecomeInvalidNotification }
}
SWIFT

cat >"$scratch/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FoundationTests",
    dependencies: [.package(path: "$repository", traits: [])],
    targets: [
        .testTarget(
            name: "FoundationTests",
            dependencies: [
                .product(name: "RunLoopKitFoundationCompat", package: "$(basename "$repository")"),
                .product(name: "RunLoopKitTesting", package: "$(basename "$repository")"),
            ],
            // Swift 5 mode: the toolchain's XCTest isolates waitForExpectations(timeout:) to the main
            // actor, which test_commonModes, a method of no actor, may not call in Swift 6 mode; the
            // copy of XCTest swift-corelibs-foundation builds its tests with does not.
            swiftSettings: [.swiftLanguageMode(.v5)]
        )
    ]
)
SWIFT

echo "foundation-tests: swift-corelibs-foundation $commit, Tests/Foundation/TestTimer.swift and TestRunLoop.swift"
cd "$scratch"
swift build --build-tests 2>&1 | grep -E "error|Build" || true
swift test --skip-build 2>&1 | tee "$scratch/test.log" | grep -E "Test Case .* (passed|failed)|error:|Executed"
