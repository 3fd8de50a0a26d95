import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck

@Suite("The ticker's measured frame rate")
struct FrameRateMeterTests {
    /// The rate a meter reads after `link`'s callbacks for one virtual second.
    private func measuredRate(frameInterval: Int) -> Double {
        let (loop, _) = makeVirtualLoop()
        var meter = FrameRateMeter()
        let link = DisplayLink(refreshRate: 60) { _ in meter.record(loop.now) }
        link.frameInterval = frameInterval
        link.add(to: loop, forMode: .default)
        loop.run(until: .zero + .seconds(1))
        link.invalidate()
        return meter.framesPerSecond
    }

    @Test("A 60 Hz link calling back every second refresh measures 30 per second; every refresh, 60")
    func followsTheCallbacks() {
        #expect(abs(measuredRate(frameInterval: 2) - 30) < 0.1)
        #expect(abs(measuredRate(frameInterval: 1) - 60) < 0.1)
    }

    @Test("No rate before two callbacks, and none after a reset")
    func needsTwoCallbacks() {
        var meter = FrameRateMeter()
        #expect(meter.framesPerSecond == 0)
        meter.record(.zero)
        #expect(meter.framesPerSecond == 0)
        meter.record(.zero + .milliseconds(20))
        #expect(abs(meter.framesPerSecond - 50) < 0.001)
        meter.reset()
        #expect(meter.framesPerSecond == 0)
    }
}
