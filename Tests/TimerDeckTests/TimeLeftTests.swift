import RunLoopKit
import TestSupport
import Testing
import TimeUnits
import TimerSlots

@Suite("Suspending with the time left, and moving a timer between modes: one home each")
struct TimeLeftTests {
    @Test("A schedule held with 15 s left resumes 15 s after the resume; one held past its deadline resumes at once")
    func heldScheduleResumesWithWhatWasLeft() {
        var left = TimeLeft()
        #expect(left.resume(now: .zero) == nil, "nothing held")
        left.hold(
            until: Instant(nanoseconds: 25 * Nanoseconds.perSecond),
            now: Instant(nanoseconds: 10 * Nanoseconds.perSecond))
        #expect(left.isHeld)
        #expect(
            left.resume(now: Instant(nanoseconds: 100 * Nanoseconds.perSecond))
                == Instant(nanoseconds: 115 * Nanoseconds.perSecond))
        #expect(!left.isHeld, "a resume lets it go")
        left.hold(until: Instant(nanoseconds: 5), now: Instant(nanoseconds: 9))
        #expect(left.resume(now: Instant(nanoseconds: 20)) == Instant(nanoseconds: 20))
        left.hold(until: .zero, now: .zero)
        left.forget()
        #expect(!left.isHeld)
    }

    @Test(
        "A move from the common modes to the default mode keeps the fire date and leaves the timer only in the new mode"
    )
    func moveKeepsTheFireDate() throws {
        let loop = try RunLoop.make(timeSource: .virtual(VirtualClock()))
        let timer = Timer(fireAt: Instant(nanoseconds: 7), interval: .zero, repeats: false) { _ in }
        loop.add(timer, forMode: .common)
        loop.move(timer, from: .common, to: .default)
        #expect(loop.contains(timer, inMode: .default))
        #expect(!loop.contains(timer, inMode: .tracking))
        #expect(timer.fireDate == Instant(nanoseconds: 7))
        loop.move(timer, from: .default, to: .default)
        #expect(loop.contains(timer, inMode: .default))
    }
}
