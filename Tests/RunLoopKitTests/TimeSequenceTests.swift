import Synchronization
import TestSupport
import Testing

@testable import RunLoopKit

/// Rule C-X3: ticks, display link frames and dispatch timer events as asynchronous sequences, each
/// following its timer's rule, each stopping its timer when the iteration ends.
@Suite("Asynchronous sequences of time (C-X3)")
struct TimeSequenceTests {
    @Test("C-X3/C-T6: a late tick fires once and the next one carries the grid points it skipped")
    func ticksSkipMissedGridPoints() {
        let (loop, clock) = makeVirtualLoop()
        let log = Transcript()
        let ticks = loop.handle.ticks(every: .milliseconds(10))
        Task(executorPreference: loop.taskExecutor) {
            var count = 0
            for await tick in ticks {
                log.append("\(tick.fireDate.milliseconds) at \(tick.firedAt.milliseconds), missed \(tick.missedTicks)")
                count += 1
                if count == 4 { break }
            }
        }
        let busy = Timer(fireAt: ms(15), interval: .zero, repeats: false) { _ in clock.busy(.milliseconds(22)) }
        loop.add(busy, forMode: .default)
        #expect(loop.run(mode: .default, until: ms(200)) == .finished)
        #expect(
            log.entries == ["10 at 10, missed 0", "20 at 37, missed 0", "40 at 40, missed 1", "50 at 50, missed 0"])
        #expect(loop.nextFireDate(forMode: .default) == nil)
    }

    @Test("C-X3: leaving a ticks loop with break stops its timer; its buffer and the task's captures are freed")
    func breakingOutOfTicksLeavesNothing() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let released = Counter()
        let buffer = WeakReference<TimeEvents<RunLoop.Tick>>()
        let ticks = loop.handle.tickSequence(every: .milliseconds(10), tolerance: .zero, inModes: [.common])
        Task(executorPreference: loop.taskExecutor) { [owner = DeinitCounted(released)] in
            _ = owner
            var iterator = ticks.makeAsyncIterator()
            buffer.object = iterator.iteration.events
            while let tick = await iterator.next() {
                log.append("tick \(tick.fireDate.milliseconds)")
                if tick.fireDate == ms(20) { break }
            }
        }
        #expect(loop.run(mode: .default, until: ms(200)) == .finished)
        #expect(log.entries == ["tick 10", "tick 20"])
        #expect(scheduledTimers(in: loop) == 0)
        #expect(buffer.object == nil)
        #expect(released.value == 1)
    }

    @Test("C-X3/M2: default-mode ticks pause while the loop tracks and skip the ticks missed")
    func defaultModeTicksPauseWhileTracking() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        let log = Transcript()
        let ticks = loop.handle.ticks(every: .milliseconds(10), inModes: [.default])
        Task(executorPreference: loop.taskExecutor) {
            for await tick in ticks {
                log.append("\(tick.fireDate.milliseconds) at \(tick.firedAt.milliseconds), missed \(tick.missedTicks)")
            }
        }
        loop.run(mode: .default, until: .zero)
        addTranscriptTimer("tracking ends", to: loop, log: log, at: 35, mode: .tracking)
        loop.run(mode: .tracking, until: ms(100))
        loop.run(mode: .default, until: ms(45))
        #expect(
            log.entries == ["tracking ends at 35", "10 at 35, missed 0", "40 at 40, missed 2"])
    }

    @Test("C-X3: cancelling the task iterating ticks ends the sequence at once; nothing is left scheduled or alive")
    func cancellationStopsTheTimer() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let released = Counter()
        let buffer = WeakReference<TimeEvents<RunLoop.Tick>>()
        let handle = loop.handle
        let ticks = handle.tickSequence(every: .milliseconds(10), tolerance: .zero, inModes: [.common])
        let consumer = Task(executorPreference: loop.taskExecutor) { [owner = DeinitCounted(released)] in
            _ = owner
            var iterator = ticks.makeAsyncIterator()
            buffer.object = iterator.iteration.events
            while let tick = await iterator.next() { log.append("tick \(tick.fireDate.milliseconds)") }
            log.append("ended at \(handle.timeSource.now().milliseconds)")
        }
        let canceller = Timer(fireAt: ms(25), interval: .zero, repeats: false) { _ in consumer.cancel() }
        loop.add(canceller, forMode: .default)
        #expect(loop.run(mode: .default, until: ms(200)) == .finished)
        #expect(log.entries == ["tick 10", "tick 20", "ended at 25"])
        #expect(scheduledTimers(in: loop) == 0)
        #expect(buffer.object == nil)
        #expect(released.value == 1)
    }

    @Test("C-X3: dropping an iterator stops its timer and frees its buffer")
    func droppedIteratorLeavesNothing() {
        let (loop, _) = makeVirtualLoop()
        var iterator: TimeSequence<RunLoop.Tick>.Iterator? = loop.handle.tickSequence(
            every: .milliseconds(10), tolerance: .zero, inModes: [.common]
        ).makeAsyncIterator()
        weak let events = iterator?.iteration.events
        #expect(loop.nextFireDate(forMode: .default) == ms(10))
        iterator = nil
        #expect(events == nil)
        #expect(loop.nextFireDate(forMode: .default) == nil)
        #expect(loop.run(mode: .default, until: ms(100)) == .finished)
    }

    @Test("C-X3/C-D4: frames carry timestamp, target timestamp and the frames skipped; ending invalidates the link")
    func displayLinkFrames() {
        let (loop, clock) = makeVirtualLoop()
        let log = Transcript()
        let released = Counter()
        let link = DisplayLink(refreshRate: 100) { [owner = DeinitCounted(released)] _ in _ = owner }
        link.add(to: loop, forMode: .common)
        let frames = link.frames
        Task(executorPreference: loop.taskExecutor) {
            var count = 0
            for await frame in frames {
                log.append(
                    "\(frame.timestamp.milliseconds)→\(frame.targetTimestamp.milliseconds), skipped \(frame.skippedFrames)"
                )
                count += 1
                if count == 3 { break }
            }
        }
        let busy = Timer(fireAt: ms(25), interval: .zero, repeats: false) { _ in clock.busy(.milliseconds(30)) }
        loop.add(busy, forMode: .default)
        #expect(loop.run(mode: .default, until: ms(200)) == .finished)
        #expect(log.entries == ["10→20, skipped 0", "20→30, skipped 0", "60→70, skipped 3"])
        #expect(!link.isValid)
        #expect(scheduledTimers(in: loop) == 0)
        #expect(released.value == 1)
    }

    @Test("C-X3/C-D4: cancelling the task iterating frames invalidates the link; nothing is left scheduled or alive")
    func cancellingFramesLeavesNothing() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let released = Counter()
        var link: DisplayLink? = DisplayLink(refreshRate: 100) { [owner = DeinitCounted(released)] _ in _ = owner }
        link?.add(to: loop, forMode: .common)
        weak let weakLink = link
        let consumer = Task(executorPreference: loop.taskExecutor) {
            [frames = link!.frames, owner = DeinitCounted(released)] in
            _ = owner
            for await frame in frames { log.append("frame \(frame.timestamp.milliseconds)") }
            log.append("ended")
        }
        link = nil
        let canceller = Timer(fireAt: ms(25), interval: .zero, repeats: false) { _ in consumer.cancel() }
        loop.add(canceller, forMode: .default)
        #expect(loop.run(mode: .default, until: ms(200)) == .finished)
        #expect(log.entries == ["frame 10", "frame 20", "ended"])
        #expect(scheduledTimers(in: loop) == 0)
        #expect(weakLink == nil)
        #expect(released.value == 2)
    }

    @Test("C-X3/C-G4: dispatch timer events coalesce missed ticks; ending the iteration cancels the timer")
    func dispatchTimerEvents() {
        let (loop, clock) = makeVirtualLoop()
        let log = Transcript()
        let released = Counter()
        var timer: DispatchTimer? = DispatchTimer(runLoop: loop) { [owner = DeinitCounted(released)] _ in _ = owner }
        timer?.schedule(deadline: .after(.milliseconds(10)), repeating: .milliseconds(10))
        timer?.resume()
        let events = timer!.events
        Task(executorPreference: loop.taskExecutor) {
            var count = 0
            for await event in events {
                log.append("ticks \(event.ticks)")
                count += 1
                if count == 3 { break }
            }
        }
        let busy = Timer(fireAt: ms(15), interval: .zero, repeats: false) { _ in clock.busy(.milliseconds(30)) }
        loop.add(busy, forMode: .default)
        loop.run(mode: .default, until: ms(200))
        #expect(log.entries == ["ticks 1", "ticks 3", "ticks 1"])
        #expect(timer?.isCancelled == true)
        #expect(scheduledTimers(in: loop) == 0)
        timer = nil
        #expect(released.value == 1)
    }

    @Test("C-X3/C-G4: cancelling the task iterating events cancels the timer; nothing is left scheduled or alive")
    func cancellingEventsLeavesNothing() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let released = Counter()
        var timer: DispatchTimer? = DispatchTimer(runLoop: loop) { [owner = DeinitCounted(released)] _ in _ = owner }
        timer?.schedule(deadline: .after(.milliseconds(10)), repeating: .milliseconds(10))
        timer?.resume()
        weak let weakTimer = timer
        let clock = loop.handle.timeSource
        let consumer = Task(executorPreference: loop.taskExecutor) {
            [events = timer!.events, owner = DeinitCounted(released)] in
            _ = owner
            for await event in events { log.append("ticks \(event.ticks) at \(clock.now().milliseconds)") }
            log.append("ended")
        }
        timer = nil
        let canceller = Timer(fireAt: ms(25), interval: .zero, repeats: false) { _ in consumer.cancel() }
        loop.add(canceller, forMode: .default)
        #expect(loop.run(mode: .default, until: ms(200)) == .finished)
        #expect(log.entries == ["ticks 1 at 10", "ticks 1 at 20", "ended"])
        #expect(scheduledTimers(in: loop) == 0)
        #expect(weakTimer == nil)
        #expect(released.value == 2)
    }
}

/// The timers scheduled in the modes of `loop`, parked ones included (a timer in several modes
/// counts in each).
func scheduledTimers(in loop: RunLoop) -> Int {
    loop.modeStates.values.reduce(0) { $0 + $1.timers.count }
}

/// A weak reference that a task may set and a test read.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    private struct Box {
        weak var object: Object?
    }

    private let box = Mutex(Box())

    var object: Object? {
        get { box.withLock { $0.object } }
        set { box.withLock { $0.object = newValue } }
    }
}

/// Counts deinitialisations.
final class Counter: Sendable {
    private let count = Atomic(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}

/// An object that counts its own deinitialisation.
final class DeinitCounted: Sendable {
    let counter: Counter
    init(_ counter: Counter) { self.counter = counter }
    deinit { counter.increment() }
}
