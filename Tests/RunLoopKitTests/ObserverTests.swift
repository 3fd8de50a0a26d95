import TestSupport
import Testing

@testable import RunLoopKit

@Suite("Observers and pass order (runloop-reference C-R1, C-R8, C-R9)")
struct ObserverTests {
    @Test(
        "C-R1: a sleeping pass notifies entry, beforeTimers, beforeSources, beforeWaiting, afterWaiting, fires timers, exit"
    )
    func passOrder() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let observer = RunLoop.Observer(activities: .allActivities) { _, activity in recorder.record("\(activity)") }
        loop.add(observer, forMode: .default)
        addRecordingTimer("timer", to: loop, recorder: recorder, firstAt: 100)
        loop.perform { recorder.record("block") }
        loop.run(until: ms(1_000))
        #expect(
            recorder.events == [
                "entry", "beforeTimers", "beforeSources", "block", "beforeWaiting", "afterWaiting", "timer", "exit",
            ])
        #expect(recorder.times(of: "timer") == [100])
    }

    @Test("C-R1: a signalled source runs after beforeSources and its blocks run after it")
    func sourcesRunAfterBeforeSources() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let observer = RunLoop.Observer(activities: [.beforeSources, .beforeWaiting]) { _, activity in
            recorder.record("\(activity)")
        }
        loop.add(observer, forMode: .default)
        let source = RunLoop.Source {
            recorder.record("source")
            loop.perform { recorder.record("block-from-source") }
        }
        loop.add(source, forMode: .default)
        source.signal()
        loop.run(until: .zero)
        #expect(recorder.events == ["beforeSources", "source", "block-from-source"])
    }

    @Test("C-R8: observers run by ascending order, ties in insertion order")
    func observersRunByOrder() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        for (name, order) in [("b10", 10), ("a0", 0), ("c10", 10), ("d-5", -5)] {
            loop.add(
                RunLoop.Observer(activities: .entry, order: order) { _, _ in recorder.record(name) }, forMode: .default)
        }
        addRecordingTimer("t", to: loop, recorder: recorder, firstAt: 1)
        loop.run(until: ms(5))
        #expect(recorder.events.prefix(4) == ["d-5", "a0", "b10", "c10"])
    }

    @Test("C-R8: a non-repeating observer is invalidated after its first callout")
    func nonRepeatingObserverRunsOnce() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let observer = RunLoop.Observer(activities: .beforeTimers, repeats: false) { _, _ in recorder.record("once") }
        loop.add(observer, forMode: .default)
        addRecordingTimer("t", to: loop, recorder: recorder, firstAt: 10, every: 10)
        loop.run(until: ms(50))
        #expect(recorder.times(of: "once") == [0])
        #expect(!observer.isValid)
    }

    @Test("C-R8: an observer is not called re-entrantly from a nested run in its own callout")
    func observerNotReentrant() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        var depth = 0
        let observer = RunLoop.Observer(activities: .entry) { _, _ in
            depth += 1
            recorder.record("entry@\(depth)")
            if depth == 1 { loop.run(mode: .default, until: loop.now + .milliseconds(5)) }
            depth -= 1
        }
        loop.add(observer, forMode: .default)
        addRecordingTimer("t", to: loop, recorder: recorder, firstAt: 1, every: 1)
        loop.run(until: ms(20))
        #expect(recorder.events.filter { $0.hasPrefix("entry") } == ["entry@1"])
    }

    @Test("C-R9: activity bits match CFRunLoop.h")
    func activityBits() {
        #expect(RunLoop.Activity.entry.rawValue == 1)
        #expect(RunLoop.Activity.beforeTimers.rawValue == 2)
        #expect(RunLoop.Activity.beforeSources.rawValue == 4)
        #expect(RunLoop.Activity.beforeWaiting.rawValue == 32)
        #expect(RunLoop.Activity.afterWaiting.rawValue == 64)
        #expect(RunLoop.Activity.exit.rawValue == 128)
        #expect(RunLoop.Activity.allActivities.rawValue == 0x0FFF_FFFF)
    }

    @Test("C-M10/C-R8: only the running mode's observers are called; nested runs notify entry/exit of their mode")
    func nestedRunNotifiesItsOwnObservers() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        loop.add(
            RunLoop.Observer(activities: [.entry, .exit]) { _, a in recorder.record("default:\(a)") }, forMode: .default
        )
        loop.add(
            RunLoop.Observer(activities: [.entry, .exit]) { _, a in recorder.record("tracking:\(a)") },
            forMode: .tracking)
        addRecordingTimer("keep", to: loop, recorder: recorder, firstAt: 100, modes: [.tracking])
        let gesture = Timer(fireAt: ms(10), interval: .zero, repeats: false) { _ in
            loop.run(mode: .tracking, until: ms(50))
        }
        loop.add(gesture, forMode: .default)
        loop.run(until: ms(60))
        #expect(recorder.events == ["default:entry", "tracking:entry", "tracking:exit", "default:exit"])
    }
}
