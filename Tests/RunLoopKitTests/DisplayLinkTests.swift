import TestSupport
import Testing
import TimeUnits

@testable import RunLoopKit

@Suite("Display link (seeds D1–D4, runloop-reference 1.6, decisions.md 8)")
struct DisplayLinkTests {
    /// Callback times in whole microseconds.
    private func run(_ link: DisplayLink, on loop: RunLoop, until ms: Int64) {
        loop.run(until: Instant(nanoseconds: ms * Nanoseconds.perMillisecond))
    }

    @Test("D1/C-D1: a 60 Hz link calls back once per refresh, exactly on the vsync grid")
    func callsBackOncePerRefresh() {
        let (loop, _) = makeVirtualLoop()
        var times: [Int64] = []
        let link = DisplayLink { _ in times.append(loop.now.nanoseconds) }
        link.add(to: loop, forMode: .default)
        run(link, on: loop, until: 100)
        #expect(times == [16_666_666, 33_333_333, 50_000_000, 66_666_666, 83_333_333, 100_000_000])
        #expect(link.frameCount == 6)
    }

    @Test(
        "D2/C-D2: duration is 0 before the first callback, then the refresh period; frameInterval 2 calls every 2nd vsync"
    )
    func frameIntervalAndDuration() {
        let (loop, _) = makeVirtualLoop()
        var stamps: [(Int64, Int64, Duration)] = []
        let link = DisplayLink { link in
            stamps.append((link.timestamp.nanoseconds, link.targetTimestamp.nanoseconds, link.duration))
        }
        link.frameInterval = 2
        #expect(link.duration == .zero)
        link.add(to: loop, forMode: .default)
        run(link, on: loop, until: 100)
        #expect(stamps.map(\.0) == [16_666_666, 50_000_000, 83_333_333])
        for (timestamp, target, duration) in stamps {
            #expect(duration == .nanoseconds(16_666_667) || duration == .nanoseconds(16_666_666))
            #expect(abs((target - timestamp) - 2 * 16_666_667) <= 1, "callback period = duration × frameInterval")
        }
        link.frameInterval = 0
        #expect(link.frameInterval == 1, "decision 8: frameInterval < 1 is clamped")
    }

    @Test("D3/C-D4: a slow callback skips frames, never queues them, and stays on its grid")
    func slowCallbackSkipsFrames() {
        let (loop, clock) = makeVirtualLoop()
        var times: [Int64] = []
        let link = DisplayLink { link in
            times.append(loop.now.nanoseconds / Nanoseconds.perMillisecond)
            if link.frameCount == 2 { clock.busy(.milliseconds(40)) }
        }
        link.add(to: loop, forMode: .default)
        run(link, on: loop, until: 120)
        // Frame 2 at 33.3 ms takes 40 ms (until 73.3): slots 50 and 66.7 are skipped, next is 83.3.
        #expect(times == [16, 33, 83, 100, 116])
        #expect(link.skippedFrames == 2)
    }

    @Test("D4/C-D1: invalidate removes the link from every mode; the mode becomes empty")
    func invalidateRemovesLink() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        var count = 0
        let link = DisplayLink { link in
            count += 1
            if count == 3 { link.invalidate() }
        }
        link.add(to: loop, forMode: .common)
        #expect(loop.run(until: ms(1_000)) == .finished)
        #expect(count == 3 && !link.isValid && link.modes.isEmpty)
    }

    @Test("M4: a link in the default mode does not fire while the loop tracks, and resumes on the grid")
    func defaultModeLinkPausesWhileTracking() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        var times: [Int64] = []
        let link = DisplayLink { _ in times.append(loop.now.nanoseconds / Nanoseconds.perMillisecond) }
        link.add(to: loop, forMode: .default)
        let input = RunLoop.Source {}
        loop.add(input, forMode: .common)
        let gesture = Timer(fireAt: ms(40), interval: .zero, repeats: false) { _ in
            loop.run(mode: .tracking, until: ms(105))
        }
        loop.add(gesture, forMode: .default)
        run(link, on: loop, until: 140)
        #expect(times == [16, 33, 116, 133])
        #expect(link.skippedFrames == 4, "slots 50, 66.7, 83.3 and 100 were not shown")
    }

    @Test("C-D3: preferredFramesPerSecond picks the nearest divisor of the refresh rate; 0 means the refresh rate")
    func preferredFramesPerSecond() {
        let link = DisplayLink { _ in }
        #expect(link.preferredFramesPerSecond == 0 && link.effectiveFramesPerSecond == 60, "0 is the default")
        link.preferredFramesPerSecond = 24
        #expect(link.frameInterval == 3 && link.effectiveFramesPerSecond == 20)
        #expect(link.preferredFramesPerSecond == 24, "the getter returns what was set")
        link.preferredFramesPerSecond = 30
        #expect(link.frameInterval == 2 && link.effectiveFramesPerSecond == 30)
        link.preferredFramesPerSecond = 0
        #expect(link.frameInterval == 1 && link.preferredFramesPerSecond == 0 && link.effectiveFramesPerSecond == 60)
    }

    @Test("C-D4: isPaused stops callbacks; resuming continues at the next refresh")
    func pauseAndResume() {
        let (loop, _) = makeVirtualLoop()
        var times: [Int64] = []
        let link = DisplayLink { _ in times.append(loop.now.nanoseconds / Nanoseconds.perMillisecond) }
        link.add(to: loop, forMode: .default)
        let pause = Timer(fireAt: ms(20), interval: .zero, repeats: false) { _ in link.isPaused = true }
        let resume = Timer(fireAt: ms(70), interval: .zero, repeats: false) { _ in link.isPaused = false }
        loop.add(pause, forMode: .default)
        loop.add(resume, forMode: .default)
        run(link, on: loop, until: 110)
        #expect(times == [16, 83, 100])
    }

    @Test("C-D1: the run loop holds a scheduled link; invalidate releases the callback's captures")
    func lifetime() {
        final class Owner {}
        let (loop, _) = makeVirtualLoop()
        weak var weakLink: DisplayLink?
        weak var weakOwner: Owner?
        do {
            let owner = Owner()
            weakOwner = owner
            let link = DisplayLink { _ in _ = owner }
            weakLink = link
            link.add(to: loop, forMode: .default)
        }
        #expect(weakLink != nil && weakOwner != nil, "scheduled: the loop keeps the link and its callback")
        weakLink?.invalidate()
        #expect(weakLink == nil && weakOwner == nil)
    }
}
