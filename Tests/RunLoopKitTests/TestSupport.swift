import RunLoopKit
import TestSupport

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
