import FoundationEssentials
import RunLoopKit

/// Foundation's `RunLoop`, with Darwin's behaviour, over a RunLoopKit run loop.
///
/// Each RunLoopKit loop has one `RunLoop` object per thread, so ``current`` and ``main`` are
/// identical (`===`) from call to call, and equal (`==`) exactly when they stand for the same loop.
/// Dates are wall-clock dates converted to the loop's uptime clock when given (see ``Timer/fireDate``).
///
/// Like the RunLoopKit loop it stands for, a `RunLoop` belongs to its thread and is not `Sendable`:
/// ``main`` exists on the main thread only, and other threads reach it with
/// `DispatchQueue.main.async` or ``base``'s `handle`.
///
/// ```swift
/// let timer = Timer(timeInterval: 0.5, repeats: true) { _ in print("tick") }
/// RunLoop.current.add(timer, forMode: .common)
/// RunLoop.current.run(until: Date(timeIntervalSinceNow: 2))
/// ```
public final class RunLoop: Hashable {
    /// The RunLoopKit loop this object stands for: its modes, observers, sources, clock and handle.
    public let base: RunLoopKit.RunLoop
    /// The ports added to this loop and the modes each is in; held weakly (``Port``).
    private var ports: [ObjectIdentifier: ScheduledPort] = [:]

    init(base: RunLoopKit.RunLoop) {
        self.base = base
    }

    /// The calling thread's run loop (RunLoopKit's `RunLoop.current`, so a loop put in place with
    /// `RunLoopKit.RunLoop.withCurrent(_:_:)` is current here too).
    @available(*, noasync)
    public class var current: RunLoop {
        LoopObjects.object(for: RunLoopKit.RunLoop.current)
    }

    /// The main thread's run loop, which drains the main dispatch queue in its common modes.
    /// Main thread only (RunLoopKit's `RunLoop.main`).
    @available(*, noasync)
    public class var main: RunLoop {
        LoopObjects.object(for: RunLoopKit.RunLoop.main)
    }

    /// The mode of the innermost run in progress, `nil` when the loop is not running.
    public var currentMode: Mode? {
        base.currentMode.map(Mode.init)
    }

    /// Adds `timer` to `mode` (``Mode/common``: every common mode); adding it again is harmless.
    /// A timer belongs to one run loop.
    public func add(_ timer: Timer, forMode mode: Mode) {
        timer.schedule(on: self, forMode: mode)
    }

    /// Adds `port` to `mode`: the first time it is added to that mode, the port's
    /// ``Port/schedule(in:forMode:)`` is called; adding it again changes nothing.
    public func add(_ port: Port, forMode mode: Mode) {
        prunePorts()
        let id = ObjectIdentifier(port)
        let entry = ports[id] ?? ScheduledPort(port: port)
        guard !entry.modes.contains(mode) else { return }
        entry.modes.append(mode)
        ports[id] = entry
        LoopObjects.keep(self, alive: true)
        port.schedule(in: self, forMode: mode)
    }

    /// Takes `port` out of `mode`, calling its ``Port/remove(from:forMode:)``; a port that is not
    /// in `mode` is left alone.
    public func remove(_ port: Port, forMode mode: Mode) {
        let id = ObjectIdentifier(port)
        guard let entry = ports[id], entry.port === port, let index = entry.modes.firstIndex(of: mode) else { return }
        entry.modes.remove(at: index)
        if entry.modes.isEmpty { ports[id] = nil }
        prunePorts()
        port.remove(from: self, forMode: mode)
    }

    /// Forgets the ports that went away; a loop object with no port left need not outlive its holders.
    private func prunePorts() {
        ports = ports.filter { $0.value.port != nil }
        if ports.isEmpty { LoopObjects.keep(self, alive: false) }
    }

    /// Runs the default mode until nothing is left in it: `run(mode:before:)` with a distant-future
    /// date, again and again. A stop ends one of those runs, not this loop.
    @available(*, noasync)
    public func run() {
        while run(mode: .default, before: .distantFuture) {}
    }

    /// Runs the default mode until `limitDate` or until nothing is left in it.
    @available(*, noasync)
    public func run(until limitDate: Date) {
        let limit = WallClock.instant(for: limitDate, on: base.timeSource)
        while base.run(mode: .default, before: limit) && base.now < limit {}
    }

    /// Runs `mode` once: until `limitDate` or until a source is handled. Returns `false` without
    /// running when the mode has nothing in it (or is ``Mode/common``), `true` otherwise.
    @available(*, noasync)
    public func run(mode: Mode, before limitDate: Date) -> Bool {
        base.run(mode: mode.base, before: WallClock.instant(for: limitDate, on: base.timeSource))
    }

    /// Fires the timers of `mode` that are due, then returns the next timer's fire date:
    /// `nil` when the mode has nothing in it, `Date.distantFuture` when it has no timer.
    @available(*, noasync)
    public func limitDate(forMode mode: Mode) -> Date? {
        base.limitDate(forMode: mode.base).map { WallClock.date(for: $0, on: base.timeSource) }
    }

    /// Runs `block` in a later pass of this loop in one of `modes`; it does not wake the loop.
    public func perform(inModes modes: [Mode], block: @escaping () -> Void) {
        base.perform(inModes: modes.map(\.base), block)
    }

    /// Runs `block` in a later pass of this loop in the default mode.
    public func perform(_ block: @escaping () -> Void) {
        perform(inModes: [.default], block: block)
    }

    /// Whether `lhs` and `rhs` stand for the same run loop.
    public static func == (lhs: RunLoop, rhs: RunLoop) -> Bool {
        lhs.base === rhs.base
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(base))
    }
}

/// A port added to a ``RunLoop``, held weakly, and the modes it is in.
private final class ScheduledPort {
    weak var port: Port?
    var modes: [RunLoop.Mode] = []

    init(port: Port) {
        self.port = port
    }
}
