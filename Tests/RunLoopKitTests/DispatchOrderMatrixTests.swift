import Glibc
import RunLoopKit
import TestSupport
import Testing

// Spawn is the dashboard's platform layer; the library tests' own package compiles it into TestSupport.
#if canImport(AppPlatform)
import AppPlatform
#endif

/// G4, decisions.md 10, runloop-reference section 0 item 9: every order of suspend, resume and
/// cancel followed by release, each in a child process — raw libdispatch against the wrapper.
@Suite("Dispatch timer crash matrix")
struct DispatchOrderMatrixTests {
    /// Every sequence of s (suspend), r (resume), c (cancel) up to `length`.
    static func orders(upTo length: Int) -> [String] {
        var all = [""]
        var current = [""]
        for _ in 0..<length {
            current = current.flatMap { prefix in ["s", "r", "c"].map { prefix + $0 } }
            all += current
        }
        return all
    }

    private static var probe: String {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = String(decoding: buffer.prefix(max(count, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/dispatch-order-probe"
    }

    /// Runs the probe and says whether it exited normally. A trap kills it with a signal, or,
    /// under AddressSanitizer (whose handler reports the signal), ends it with exit status 1.
    private static func exitsNormally(_ mode: String, _ operations: String) throws -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        return Spawn.wait(try Spawn.start(probe, arguments: [mode, operations], actions: &actions)) == .exited(0)
    }

    @Test(
        "decision 10: no order of suspend, resume, cancel and release crashes the wrapper; libdispatch traps on the known ones"
    )
    func matrix() throws {
        try #require(access(Self.probe, X_OK) == 0, "build dispatch-order-probe first: \(Self.probe)")
        var rawCrashes: Set<String> = []
        var wrapperCrashes: [String] = []
        for order in Self.orders(upTo: 4) {
            if try !Self.exitsNormally("raw", order) { rawCrashes.insert(order) }
            if try !Self.exitsNormally("wrapped", order) { wrapperCrashes.append(order) }
        }
        #expect(wrapperCrashes.isEmpty, "wrapper crashed for: \(wrapperCrashes)")
        // Item 9: release of a never-activated source (even cancelled), of a suspended one, over-resume,
        // and of a cancelled but still suspended one.
        for known in ["", "c", "rs", "rr", "rsc"] { #expect(rawCrashes.contains(known), "raw '\(known)'") }
        for survivor in ["r", "rc", "rcc", "cr"] { #expect(!rawCrashes.contains(survivor), "raw '\(survivor)'") }
        print(
            "raw libdispatch crashes on \(rawCrashes.count) of \(Self.orders(upTo: 4).count) orders; the wrapper on none"
        )
    }
}
