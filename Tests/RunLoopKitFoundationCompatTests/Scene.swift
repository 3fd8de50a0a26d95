import RunLoopKit
import RunLoopKitFoundationCompat
import TimeUnits

// This file imports RunLoopKit too, for its VirtualClock: these two lines pick Foundation's names.
private typealias RunLoop = RunLoopKitFoundationCompat.RunLoop
private typealias Timer = RunLoopKitFoundationCompat.Timer

/// A run loop on a fresh virtual clock, current while a test's body runs, so that Foundation-style
/// code runs on exact, repeatable time; the other files of these tests speak only Foundation's names.
struct Scene {
    let clock: VirtualClock

    /// The scene's run loop (`RunLoop.current` inside ``run(_:)``).
    var loop: RunLoopKitFoundationCompat.RunLoop { .current }

    /// Uptime in milliseconds.
    var milliseconds: Int64 { clock.now(.uptime).nanoseconds / Nanoseconds.perMillisecond }

    /// The scene's wall-clock date `seconds` from now.
    func date(in seconds: TimeInterval) -> Date {
        Date(timeIntervalSince1970: Nanoseconds.seconds(clock.now(.wall).nanoseconds) + seconds)
    }

    /// A long computation on the loop's thread: `seconds` of uptime pass.
    func busy(_ seconds: TimeInterval) {
        clock.busy(.milliseconds(Int64((seconds * 1_000).rounded())))
    }

    /// The machine sleeps for `seconds`: wall time jumps, uptime does not.
    func sleepMachine(_ seconds: TimeInterval) {
        clock.sleepMachine(for: .seconds(seconds))
    }

    /// Marks the tracking mode common, as UIKit does on the main run loop.
    func makeTrackingCommon() {
        loop.base.addCommonMode(.tracking)
    }

    /// A scroll gesture from `start` to `end` seconds: the loop runs the tracking mode, nested, as
    /// UIKit does while a scroll view is dragged.
    func scroll(from start: TimeInterval, to end: TimeInterval) {
        let loop = self.loop
        let endDate = date(in: end)
        // The finger lifts at `end`; the timer keeps the tracking mode from being empty till then.
        let lift = Timer(fire: endDate, interval: 0, repeats: false) { _ in }
        let touch = Timer(fire: date(in: start), interval: 0, repeats: false) { _ in
            loop.add(lift, forMode: .tracking)
            _ = loop.run(mode: .tracking, before: endDate)
        }
        loop.add(touch, forMode: .default)
    }

    /// Runs `body` with a scene whose loop is the current run loop.
    static func run(_ body: (Scene) -> Void) {
        let clock = VirtualClock()
        let base = RunLoopKit.RunLoop(timeSource: .virtual(clock))
        RunLoopKit.RunLoop.withCurrent(base) { body(Scene(clock: clock)) }
    }
}
