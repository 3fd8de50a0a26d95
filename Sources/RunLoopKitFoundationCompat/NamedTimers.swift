import Dispatch
import RunLoopKit
import Synchronization

/// Dispatch timers kept by name — the seed's `GCDTimer` container (G5). Thread-safe.
///
/// Scheduling an existing name replaces its schedule and action; a one-shot timer cancels itself
/// after firing; cancelling by name stops it. The first fire is one interval after scheduling.
///
/// ```swift
/// let timers = NamedTimers()
/// timers.schedule("heartbeat", every: .seconds(2)) { sendHeartbeat() }
/// timers.cancel("heartbeat")
/// ```
public final class NamedTimers: Sendable {
    private struct Entry {
        let generation: UInt64
        let timer: DispatchTimer
    }

    private let defaultQueue: DispatchQueue
    private let entries = Mutex<(timers: [String: Entry], generation: UInt64)>(([:], 0))

    /// A container whose timers run on `queue` unless told otherwise (a background queue by default).
    public init(queue: DispatchQueue = .global()) {
        defaultQueue = queue
    }

    deinit {
        entries.withLock { state in
            for entry in state.timers.values { entry.timer.cancel() }
            state.timers.removeAll()
        }
    }

    /// Schedules `action` under `name` every `interval` (or once), replacing any timer of that name.
    public func schedule(
        _ name: String, every interval: Duration, repeats: Bool = true, queue: DispatchQueue? = nil,
        action: @escaping @Sendable () -> Void
    ) {
        // The entry is stored before the timer starts, under the same lock its one-shot handler
        // takes to remove it: a timer that fires at once still finds its entry and removes it.
        entries.withLock { state in
            state.generation += 1
            let generation = state.generation
            let timer = DispatchTimer(clock: .uptime, queue: queue ?? defaultQueue) { [weak self] _ in
                action()
                if !repeats { self?.cancel(name, generation: generation) }
            }
            timer.schedule(deadline: .after(interval), repeating: repeats ? interval : nil)
            state.timers[name]?.timer.cancel()
            state.timers[name] = Entry(generation: generation, timer: timer)
            timer.resume()
        }
    }

    /// Cancels the timer called `name`, if there is one.
    public func cancel(_ name: String) {
        cancel(name, generation: nil)
    }

    /// The names of the timers still scheduled, sorted.
    public var activeNames: [String] {
        entries.withLock { $0.timers.keys.sorted() }
    }

    private func cancel(_ name: String, generation: UInt64?) {
        entries.withLock { state in
            guard let entry = state.timers[name], generation == nil || entry.generation == generation else { return }
            entry.timer.cancel()
            state.timers[name] = nil
        }
    }
}
