import Foundation
import Synchronization

/// swift-corelibs-foundation: `RunLoop` + `Timer(fire:interval:repeats:block:)` (CFRunLoop underneath).
///
/// `Timer(timeInterval:repeats:block:)` is not used: on Linux it fires at once (issue #4712).
enum FoundationPeer: Peer {
    static let name = "Foundation"

    private static func date(_ nanoseconds: Int64) -> Date {
        Date(timeIntervalSinceNow: Nanoseconds.seconds(nanoseconds - monotonicNanoseconds()))
    }

    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult {
        let loop = RunLoop.current
        // Foundation's timer blocks are @Sendable; they run on this thread, so the lock is never contended.
        let progress = Mutex((fired: 0, last: Int64(0)))
        var spreadSource = DeadlineSpread()
        var run = FireRun(count: count, scatter: scatter)
        let origin = Date()
        for _ in 0..<count {
            let offset = Nanoseconds.seconds(spreadSource.next(below: spread))
            let timer = Timer(fire: origin.addingTimeInterval(offset), interval: 0, repeats: false) { _ in
                progress.withLock { $0 = ($0.fired + 1, monotonicNanoseconds()) }
            }
            if tolerance > 0 { timer.tolerance = Nanoseconds.seconds(tolerance) }
            loop.add(timer, forMode: .default)
        }
        run.scheduledAll()
        // The main thread's default mode never counts as empty (it stands for the main queue, C-M8),
        // so run in short slices until the last timer has fired.
        while progress.withLock({ $0.fired }) < count {
            _ = loop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
        }
        let after = ResourceUsage.now()
        let (fired, lastCallback) = progress.withLock { ($0.fired, $0.last) }
        return run.result(peer: name, after: after, lastCallback: lastCallback, deadlines: spreadSource, fired: fired)
    }

    static func cancel(count: Int) -> ThroughputResult {
        guard count <= 100_000 else {
            return ThroughputResult(
                peer: name, timers: count,
                note: "not run: CFRunLoop cancels by a linear scan of the mode's timers (O(n) each)")
        }
        let loop = RunLoop.current
        var spreadSource = DeadlineSpread()
        let far = Date(timeIntervalSinceNow: 3_600)
        var timers: [Timer] = []
        timers.reserveCapacity(count)
        let start = monotonicNanoseconds()
        for _ in 0..<count {
            let timer = Timer(
                fire: far.addingTimeInterval(Nanoseconds.seconds(spreadSource.next(below: 1_000_000_000))),
                interval: 0, repeats: false
            ) { _ in }
            loop.add(timer, forMode: .default)
            timers.append(timer)
        }
        let scheduled = monotonicNanoseconds()
        for timer in timers { timer.invalidate() }
        let cancelled = monotonicNanoseconds()
        return ThroughputResult(
            peer: name, timers: count,
            scheduleNanoseconds: Double(scheduled - start) / Double(count),
            cancelNanoseconds: Double(cancelled - scheduled) / Double(count))
    }

    static func lateness(interval: Int64, duration: Int64) -> LatenessResult {
        let loop = RunLoop.current
        let fireTimes = Mutex<[Int64]>([])
        let start = monotonicNanoseconds()
        let timer = Timer(fire: date(start + interval), interval: Nanoseconds.seconds(interval), repeats: true) { _ in
            let now = monotonicNanoseconds()
            fireTimes.withLock { $0.append(now) }
        }
        loop.add(timer, forMode: .default)
        while (fireTimes.withLock { $0.last ?? 0 }) < start + duration {
            _ = loop.run(mode: .default, before: date(start + duration + interval))
        }
        timer.invalidate()
        return latenessResult(
            interval: interval, duration: duration, start: start, fireTimes: fireTimes.withLock { $0 })
    }

    static func idle(duration: Int64) -> IdleResult {
        let loop = RunLoop.current
        let remaining = Mutex(Int(duration / Nanoseconds.perSecond))
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        let timer = Timer(fire: Date(timeIntervalSinceNow: 1), interval: 1, repeats: true) { timer in
            if remaining.withLock({
                $0 -= 1
                return $0
            }) == 0 {
                timer.invalidate()
            }
        }
        loop.add(timer, forMode: .default)
        let end = Date(timeIntervalSinceNow: Nanoseconds.seconds(duration) + 0.5)
        while remaining.withLock({ $0 }) > 0 && Date() < end { _ = loop.run(mode: .default, before: end) }
        let seconds = Nanoseconds.seconds(monotonicNanoseconds() - start)
        return idleResult(seconds: seconds, before: before, after: .now())
    }
}
