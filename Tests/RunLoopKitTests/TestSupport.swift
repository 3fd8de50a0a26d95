import RunLoopKit
import Synchronization

/// A run loop on a fresh virtual clock, bound to the calling thread.
func makeVirtualLoop() -> (RunLoop, VirtualClock) {
    let clock = VirtualClock()
    return (RunLoop(clock: .virtual(clock)), clock)
}

/// Milliseconds on the uptime axis, for readable expectations.
func ms(_ value: Int64) -> Instant {
    Instant(nanoseconds: value * Nanoseconds.perMillisecond)
}

extension Instant {
    /// Whole milliseconds since the clock's origin.
    var milliseconds: Int64 { nanoseconds / Nanoseconds.perMillisecond }
}

/// Records what happened, in order, with the virtual time it happened at.
final class Recorder {
    private(set) var events: [String] = []
    private(set) var times: [Int64] = []
    let loop: RunLoop

    init(_ loop: RunLoop) {
        self.loop = loop
    }

    func record(_ event: String) {
        events.append(event)
        times.append(loop.now.milliseconds)
    }

    /// The virtual times (ms) of the events named `event`.
    func times(of event: String) -> [Int64] {
        zip(events, times).filter { $0.0 == event }.map(\.1)
    }
}

/// A repeating or one-shot timer that records "name" each time it fires.
@discardableResult
func addRecordingTimer(
    _ name: String, to loop: RunLoop, recorder: Recorder, firstAt first: Int64, every interval: Int64 = 0,
    modes: [RunLoop.Mode] = [.default], work: Duration = .zero, clock: VirtualClock? = nil
) -> Timer {
    let timer = Timer(fireAt: ms(first), interval: .milliseconds(interval), repeats: interval > 0) { _ in
        recorder.record(name)
        clock?.busy(work)
    }
    for mode in modes { loop.add(timer, forMode: mode) }
    return timer
}

/// What tasks did, in order; safe from any thread.
final class Transcript: Sendable {
    private let storage = Mutex<[String]>([])

    func append(_ entry: String) {
        storage.withLock { $0.append(entry) }
    }

    var entries: [String] { storage.withLock { $0 } }
}

/// A one-shot timer at `at` ms that appends "name at <ms>" to `log`.
@discardableResult
func addTranscriptTimer(
    _ name: String, to loop: RunLoop, log: Transcript, at time: Int64, mode: RunLoop.Mode = .default
) -> Timer {
    let timer = Timer(fireAt: ms(time), interval: .zero, repeats: false) { _ in
        log.append("\(name) at \(loop.now.milliseconds)")
    }
    loop.add(timer, forMode: mode)
    return timer
}
