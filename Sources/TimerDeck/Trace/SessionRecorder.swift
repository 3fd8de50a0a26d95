import RunLoopKit
import TerminalUI
import TimeUnits

/// `--record FILE`: the live session's input (keys, wheel scrolls, resizes) with the time between
/// them, written as a headless script, so `timerdeck --headless --script FILE` replays it on the
/// virtual clock. Waits are whole milliseconds; input a script cannot express (a mouse button, a
/// function key) is written as a comment.
///
/// ```swift
/// let recorder = try SessionRecorder(path: "session.txt")
/// recorder.begin(size: screen.size, at: loop.now)
/// recorder.input(at: loop.now)
/// recorder.key(.character("s"), quits: false)
/// recorder.finish(at: loop.now)
/// ```
package final class SessionRecorder {
    private let file: LineFile
    private var last: Instant = .zero
    /// Whether the quit key ended the script (with a snapshot of the screen it left).
    private var ended = false

    /// The first write error, if any.
    package var failure: String? { file.failure.map { "recording " + $0 } }

    /// Creates the script at `path`; a file already there is refused unless `replacing`, when it is
    /// truncated.
    package init(path: String, replacing: Bool = false) throws(TraceFileError) {
        file = try LineFile(path: path, role: "recording", exclusive: !replacing)
    }

    /// Starts the script: the screen's `size` at `time`.
    package func begin(size: Size, at time: Instant) {
        last = time
        file.write("# timerdeck --record: replay with timerdeck --headless --script \(file.path)")
        file.write("size \(size.width)x\(size.height)")
    }

    /// Records that input was read at `time`: the wait since the last.
    package func input(at time: Instant) {
        guard !ended else { return }
        wait(until: time)
    }

    /// Records `key`, as the dashboard applied it; `quits`: it ended the session (the bound quit
    /// key), so the script ends with the screen it left, then the key.
    package func key(_ key: Key, quits: Bool) {
        guard !ended else { return }
        if quits {
            file.write("snapshot")
            ended = true
        }
        if let name = Self.scriptName(of: key) {
            file.write("key \(name)")
        } else {
            file.write("# \(key): not replayable")
        }
    }

    /// Records a resize to `size` at `time`.
    package func resize(to size: Size, at time: Instant) {
        guard !ended else { return }
        wait(until: time)
        file.write("size \(size.width)x\(size.height)")
    }

    /// Ends the script at `time` with a snapshot of the last screen, unless the quit key ended it.
    package func finish(at time: Instant) {
        guard !ended else { return }
        ended = true
        wait(until: time)
        file.write("snapshot")
    }

    /// The waits from the last input to `time`, in whole milliseconds, each at most the script's longest.
    private func wait(until time: Instant) {
        var left = last.duration(to: time).nanoseconds / Nanoseconds.perMillisecond
        last = time
        let longest = HeadlessScript.waitRange.upperBound.nanoseconds / Nanoseconds.perMillisecond
        while left > 0 {
            let step = min(left, longest)
            file.write("wait \(step)ms")
            left -= step
        }
    }

    /// The name of `key` in a headless script, if a script can say it.
    static func scriptName(of key: Key) -> String? {
        switch key {
        case .mouse(let event) where event.kind == .wheelUp: return "wheel-up"
        case .mouse(let event) where event.kind == .wheelDown: return "wheel-down"
        case .mouse, .function, .resize, .unknown, .character("#"): return nil
        default: return Key.scriptNamed(key.description) == key ? key.description : nil
        }
    }
}
