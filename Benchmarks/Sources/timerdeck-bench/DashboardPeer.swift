import Foundation
import RunLoopKit

/// The dashboard itself (`timerdeck`) in a pseudo-terminal: what it costs to draw, to sit idle and
/// to answer a key. One dashboard runs every scene in turn:
///
/// 1. rendering: as launched, the ticker's 60 Hz display link animates the ripple;
/// 2. every timer paused (the ticker, the sampler, the uploader; the SMS buttons not pressed);
/// 3. input latency, still paused, so every byte that comes back answers the key;
/// 4. the three SMS countdowns running, everything else still paused;
/// 5. the same with the dashboard's clock paused (`space`): nothing may wake it;
/// 6. in a second dashboard, 1,000 timers of the user's (`[[timers]]`) at 1 Hz, the built-in ones paused;
/// 7. in a third, input latency while a timer's hook hangs.
enum DashboardPeer {
    static let name = "timerdeck"

    /// How long each scene lasts.
    struct Plan {
        var render: Duration
        var idle: Duration
        var keys: Int
        /// Quiet time after a change of scene, before measuring.
        var settle: Duration
        /// Quiet time after pausing every timer: long enough for libdispatch to let its idle worker
        /// threads go (they wait 5 s for work), so the paused scene shows the steady state.
        var pausedSettle: Duration

        static let full = Plan(
            render: .seconds(5), idle: .seconds(10), keys: 200, settle: .seconds(1),
            pausedSettle: .seconds(6))
        static let quick = Plan(
            render: .seconds(1), idle: .milliseconds(1_500), keys: 40, settle: .milliseconds(500),
            pausedSettle: .milliseconds(500))

        /// As a child process's arguments (durations in ms).
        var arguments: [Int] {
            [render, idle].map { Int($0.nanoseconds / Nanoseconds.perMillisecond) } + [keys]
                + [settle, pausedSettle].map { Int($0.nanoseconds / Nanoseconds.perMillisecond) }
        }

        init(render: Duration, idle: Duration, keys: Int, settle: Duration, pausedSettle: Duration) {
            self.render = render
            self.idle = idle
            self.keys = keys
            self.settle = settle
            self.pausedSettle = pausedSettle
        }

        /// From a child process's arguments.
        init?(arguments: [Int64]) {
            guard arguments.count == 5 else { return nil }
            self.init(
                render: .milliseconds(arguments[0]), idle: .milliseconds(arguments[1]), keys: Int(arguments[2]),
                settle: .milliseconds(arguments[3]), pausedSettle: .milliseconds(arguments[4]))
        }
    }

    /// Runs every scene on the `timerdeck` at `binary`.
    static func measure(binary: String, plan: Plan) throws(BenchError) -> DashboardResult {
        let session = try DashboardSession(binary: binary)
        session.terminal.drain(for: plan.settle.nanoseconds)
        let render = rendering(session, duration: plan.render)
        session.pauseEveryTimer()
        session.terminal.drain(for: plan.pausedSettle.nanoseconds)
        let paused = idle(session, scene: "paused", duration: plan.idle)
        let input = inputLatency(session, keys: plan.keys)
        session.startCountdowns()
        session.terminal.drain(for: plan.settle.nanoseconds)
        let running = idle(session, scene: "sms-running", duration: plan.idle)
        session.press([.character(" ")])
        session.terminal.drain(for: plan.settle.nanoseconds)
        let clockPaused = idle(session, scene: "clock-paused", duration: plan.idle)
        guard session.terminal.isOpen else {
            throw BenchError(
                "timerdeck ended before the last scene was over (wait status \(session.terminal.waitForExit(timeout: 0)))"
            )
        }
        let status = session.quit(timeout: .seconds(10))
        let userTimers = try manyUserTimers(binary: binary, plan: plan)
        let inputWithHook = try inputLatencyWithHangingHook(binary: binary, plan: plan)
        return DashboardResult(
            render: render, paused: paused, input: input, running: running, clockPaused: clockPaused,
            userTimers: userTimers, inputWithHook: inputWithHook, exitStatus: status)
    }

    /// Input latency in a dashboard whose one-shot timer started a hook that hangs (`sleep 20`)
    /// for the whole measurement: a hook runs off the loop's thread and must not slow the keys.
    private static func inputLatencyWithHangingHook(binary: String, plan: Plan) throws(BenchError)
        -> InputLatencyResult
    {
        let config =
            try shippedConfig(of: binary) + """

                [[timers]]
                name = "hang"
                interval = "100ms"
                repeats = false
                hook = "sleep 20"
                hook_limit = "30s"
                """
        let session = try DashboardSession(binary: binary, config: config)
        session.terminal.drain(for: plan.settle.nanoseconds)
        session.pauseEveryTimer()
        session.terminal.drain(for: plan.settle.nanoseconds)
        let result = inputLatency(session, keys: plan.keys, scene: "input-hook")
        _ = session.quit(timeout: .seconds(10))
        return result
    }

    /// The default config `binary` ships (`timerdeck --print-config`), whose `[[timers]]` are the
    /// standard scene: a scene adds its own timers after them, so the keys that pause the standard
    /// rows find them where they always are.
    private static func shippedConfig(of binary: String) throws(BenchError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--print-config"]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw BenchError("cannot run \(binary) --print-config: \(error)")
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, !text.isEmpty else {
            throw BenchError("\(binary) --print-config failed with status \(process.terminationStatus)")
        }
        return text
    }

    /// How many user timers the last scene defines.
    static let userTimerCount = 1_000

    /// A dashboard with ``userTimerCount`` `[[timers]]` at 1 Hz and every built-in timer paused.
    private static func manyUserTimers(binary: String, plan: Plan) throws(BenchError) -> DashboardIdleResult {
        let config =
            try shippedConfig(of: binary) + "\n"
            + (0..<userTimerCount).map { "[[timers]]\nname = \"t\($0)\"\ninterval = \"1s\"\n" }
            .joined(separator: "\n")
        let session = try DashboardSession(binary: binary, config: config)
        session.terminal.drain(for: plan.settle.nanoseconds)
        session.pauseEveryTimer()
        session.terminal.drain(for: plan.settle.nanoseconds)
        let result = idle(session, scene: "user-timers", duration: plan.idle)
        _ = session.quit(timeout: .seconds(10))
        return result
    }
}
