import CVirtualClockReads
import Glibc
import RunLoopKit
import Synchronization

/// The concurrency runtime's hook for its global executor (`swift_task_enqueueGlobal_hook`,
/// exported by libswift_Concurrency), pointed at the active scope, and the runtime's clock reads
/// (CVirtualClockReads), turned virtual with it. The runtime's sleeps need no hook: they go to the
/// scheduling executor the sleeping task runs on.
///
/// The hook is the runtime's internal ABI: it is installed only by the Swift toolchain it was
/// checked on (6.3, as swift-nio gates its executor takeover), with a compare-and-swap, so that a
/// hook someone else installed is reported instead of overwritten.
enum RuntimeHook {
    typealias Enqueue = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Enqueue) -> Void

    /// The name of the runtime's hook variable.
    private static let variableName = "swift_task_enqueueGlobal_hook"

    /// The active scope.
    private static let active = Mutex<VirtualTimeScope?>(nil)

    private static let hook: Hook = { job, original in
        guard let scope = active.withLock({ $0 }) else { return original(job) }
        scope.enqueue(job)
    }

    /// The hook as the runtime's variable holds it.
    private static var hookBits: UInt { unsafeBitCast(hook, to: UInt.self) }

    /// Throws ``VirtualTimeError/Kind/unsupportedRuntime`` unless the program was built with the
    /// toolchain whose runtime the hook was checked on.
    static func checkToolchain(at instant: Instant) throws(VirtualTimeError) {
        #if !(compiler(>=6.3) && compiler(<6.4))
        throw VirtualTimeError(
            kind: .unsupportedRuntime, instant: instant,
            message: "VirtualTime takes over the Swift runtime's global executor through its internal "
                + "\(variableName), checked with Swift 6.3 only: build with Swift 6.3")
        #endif
    }

    /// Runs `body` with the hook pointed at `scope`, and the runtime's clock reads with it, then
    /// removes it. Throws the hook's error (it could not be installed, or did not hold the scope's
    /// hook at the end) before `body`'s. Stops the program if a scope is active.
    static func with<Result>(
        _ scope: VirtualTimeScope, _ body: () throws(VirtualTimeError) -> Result
    ) throws(VirtualTimeError) -> Result {
        try install(scope)
        let outcome = Swift.Result(catching: body)
        try uninstall(scope)
        return try outcome.get()
    }

    /// Throws what installing `scope` now would — a toolchain other than the one checked, a runtime
    /// without the hook, another hook, clock reads that stay real — without installing it: a test
    /// fails before it makes the task the scope would run.
    static func check(_ scope: VirtualTimeScope) throws(VirtualTimeError) {
        let now = scope.handle.timeSource.now()
        try checkToolchain(at: now)
        let found = runloopkit_exchange_hook(try hookVariable(at: now), 0, 0)
        guard found == 0 else { throw hookInUse(found, at: now) }
        // The clock reads answer for the active scope: `scope` is that for the check, with the
        // runtime's executor left alone. With another scope active, installing stops the program.
        let claimed = active.withLock { active in
            guard active == nil else { return false }
            active = scope
            return true
        }
        guard claimed else { return }
        defer { active.withLock { $0 = nil } }
        try ClockReads.start(for: scope)
        ClockReads.stop()
    }

    private static func install(_ scope: VirtualTimeScope) throws(VirtualTimeError) {
        let now = scope.handle.timeSource.now()
        try checkToolchain(at: now)
        let variable = try hookVariable(at: now)
        active.withLock { active in
            precondition(active == nil, "VirtualTime.run(on:): another virtual-time scope is active")
            active = scope
        }
        let found = runloopkit_exchange_hook(variable, 0, hookBits)
        guard found == 0 else {
            active.withLock { $0 = nil }
            throw hookInUse(found, at: now)
        }
        do {
            try ClockReads.start(for: scope)
        } catch {
            _ = runloopkit_exchange_hook(variable, hookBits, 0)
            active.withLock { $0 = nil }
            throw error
        }
    }

    /// Restores the runtime's own executor. A job the runtime hands over meanwhile goes to it (the
    /// hook finds no scope and calls the original).
    private static func uninstall(_ scope: VirtualTimeScope) throws(VirtualTimeError) {
        let now = scope.handle.timeSource.now()
        ClockReads.stop()
        let found = runloopkit_exchange_hook(try hookVariable(at: now), hookBits, 0)
        active.withLock { $0 = nil }
        guard found == hookBits else {
            throw VirtualTimeError(
                kind: .hookInUse, instant: now,
                message: "\(variableName) held \(hex(found)) instead of the scope's hook when the scope ended: "
                    + "another library replaced it meanwhile; it is left in place")
        }
    }

    /// The hook variable; throws when the runtime exports none.
    private static func hookVariable(at instant: Instant) throws(VirtualTimeError) -> UnsafeMutablePointer<UInt> {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        guard let symbol = dlsym(process, variableName) else {
            throw VirtualTimeError(
                kind: .unsupportedRuntime, instant: instant,
                message: "the concurrency runtime exports no \(variableName) (a statically linked runtime): "
                    + "VirtualTime needs the shared libswift_Concurrency")
        }
        return symbol.assumingMemoryBound(to: UInt.self)
    }

    /// The error for a hook variable that already holds `found` when a scope starts.
    private static func hookInUse(_ found: UInt, at instant: Instant) -> VirtualTimeError {
        VirtualTimeError(
            kind: .hookInUse, instant: instant,
            message: "\(variableName) already holds \(hex(found)): another library hooks the runtime's "
                + "global executor, and a virtual-time scope does not replace it")
    }

    private static func hex(_ bits: UInt) -> String {
        "0x" + String(bits, radix: 16)
    }

    /// The active scope, if it is `handle`'s loop's.
    static func activeScope(for handle: RunLoop.Handle) -> VirtualTimeScope? {
        active.withLock { $0?.handle.isHandle(ofSameLoopAs: handle) == true ? $0 : nil }
    }

    /// The loop of the active scope, if a scope is active.
    static var activeHandle: RunLoop.Handle? {
        active.withLock { $0?.handle }
    }

    /// The address of the running task, or `nil` outside a task. A task is its own job, so this is
    /// also the address of every job that resumes it. `UnsafeCurrentTask` holds the task's
    /// reference and nothing else (Swift 6.3, the toolchain the hook is installed with).
    static var currentTaskAddress: UInt? {
        withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } }
    }

    /// The address of `job`: for a task's job, the task's.
    static func address(of job: UnownedJob) -> UInt {
        unsafeBitCast(job, to: UInt.self)
    }

    /// The active scope's reading of `clock` for the runtime's `swift_get_time`: the loop's
    /// continuous time for `CLOCK_BOOTTIME` (`ContinuousClock`), its uptime for `CLOCK_MONOTONIC`
    /// (`SuspendingClock`); `nil` for another clock or when no scope is active.
    static func virtualReading(of clock: clockid_t) -> Instant? {
        guard let virtual = active.withLock({ $0?.handle.timeSource.virtualClock }) else { return nil }
        switch clock {
        case CLOCK_BOOTTIME: return virtual.now(.continuous)
        case CLOCK_MONOTONIC: return virtual.now(.uptime)
        default: return nil
        }
    }
}

/// The interposed `clock_gettime` of CVirtualClockReads, as its constructor reported it when the
/// executable started: its switch, and whether it located the runtime's `swift_get_time`.
enum ClockReads {
    private enum Link {
        /// The constructor never ran: the executable does not link CVirtualClockReads, and the
        /// runtime's clocks read real time in a scope.
        case notLinked
        case linked(setActive: @convention(c) (Bool) -> Void, located: Bool)
    }

    private static let link = Mutex(Link.notLinked)
    /// Whether a scope has found `ContinuousClock.now` reading its virtual time: the first does.
    private static let checked = Atomic<Bool>(false)

    /// Keeps what the constructor found.
    static func attach(_ setActive: @escaping @convention(c) (Bool) -> Void, located: Bool) {
        link.withLock { $0 = .linked(setActive: setActive, located: located) }
    }

    /// Turns the virtual reads on for `scope`, the active one. At the first scope, checks that
    /// `ContinuousClock.now` reads its virtual continuous time; throws
    /// ``VirtualTimeError/Kind/clockReads`` with the reason when it cannot or does not.
    static func start(for scope: VirtualTimeScope) throws(VirtualTimeError) {
        guard case .linked(let setActive, let located) = link.withLock({ $0 }) else { return }
        let now = scope.handle.timeSource.now()
        guard located else {
            throw VirtualTimeError(
                kind: .clockReads, instant: now,
                message: "the process's clock_gettime (CVirtualClockReads) found no swift_get_time to answer "
                    + "(a statically linked runtime exports none): ContinuousClock.now would read real time")
        }
        setActive(true)
        guard !checked.load(ordering: .acquiring) else { return }
        let read = ContinuousClock().systemEpoch.duration(to: .now)
        let virtual = RuntimeHook.virtualReading(of: CLOCK_BOOTTIME).map { Duration.nanoseconds($0.nanoseconds) }
        guard read == virtual else {
            setActive(false)
            throw VirtualTimeError(
                kind: .clockReads, instant: now,
                message: "ContinuousClock.now read \(read) in the scope instead of its virtual \(virtual ?? .zero): "
                    + "the runtime's swift_get_time reads the clock otherwise than the one checked (Swift 6.3 "
                    + "on x86_64): a tail call, or code for another architecture")
        }
        checked.store(true, ordering: .releasing)
    }

    /// Turns the virtual reads off.
    static func stop() {
        guard case .linked(let setActive, _) = link.withLock({ $0 }) else { return }
        setActive(false)
    }
}

/// Called by the interposed `clock_gettime` (CVirtualClockReads) as the executable starts:
/// `setActive` turns its virtual reads on while a scope is active, and `located` says whether it
/// found the runtime's `swift_get_time`.
@_cdecl("runloopkit_virtual_clock_reads_attach")
package func attachVirtualClockReads(_ setActive: @escaping @convention(c) (Bool) -> Void, _ located: Bool) {
    ClockReads.attach(setActive, located: located)
}

/// The interposed `clock_gettime` asks this for the runtime's `swift_get_time`: fills `time` with
/// the active scope's reading of `clock` and returns true, or returns false (see
/// ``RuntimeHook/virtualReading(of:)``).
@_cdecl("runloopkit_virtual_clock_read")
package func readVirtualClock(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>) -> Bool {
    guard let reading = RuntimeHook.virtualReading(of: clock) else { return false }
    let (seconds, nanoseconds) = reading.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    time.pointee = timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))
    return true
}
