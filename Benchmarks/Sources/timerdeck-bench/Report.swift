import Foundation

/// Prints results as aligned tables, or as JSON lines, and keeps the tables for the performance page.
struct Report {
    let json: Bool
    /// Everything printed as tables, and the throughput rows, for ``PerformancePage``.
    let transcript = Transcript()

    /// What a run printed, kept for ``PerformancePage``.
    final class Transcript {
        var text = ""
        /// Every throughput table's rows, with the deadlines they ran on.
        var throughput: [(rows: [ThroughputResult], tolerance: Int64, allDue: Bool, spread: Int)] = []
    }

    /// Prints `line` and keeps it.
    private func out(_ line: String) {
        Swift.print(line)
        transcript.text += line + "\n"
    }

    func machine() {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            ?? "unknown"
        let line = "machine: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores"
        if json {
            emit(["machine": cpu, "cores": String(ProcessInfo.processInfo.activeProcessorCount)])
        } else {
            out(line)
        }
    }

    func throughput(
        _ rows: [ThroughputResult], tolerance: Int64 = 0, allDue: Bool = false, spread: Int = 1_000_000_000
    ) {
        transcript.throughput.append((rows, tolerance, allDue, spread))
        if json {
            for row in rows { emit(row) }
            return
        }
        let with =
            tolerance > 0 ? ", tolerance \(format(Nanoseconds.milliseconds(tolerance), digits: 0)) ms on each" : ""
        let when =
            allDue
            ? "every deadline due at once (the work per timer)"
            : "deadlines spread over \(format(Nanoseconds.seconds(spread), digits: spread % Int(Nanoseconds.perSecond) == 0 ? 0 : 1)) s"
        let scattered = rows.contains { $0.scatterBytes != nil } ? ", timers alone or scattered in memory" : ""
        out("\n## Throughput: \(rows.first?.timers ?? 0) one-shot timers, \(when)\(with)\(scattered)")
        // The lateness of each callback, where the rows measured it (the sleepers).
        let late = rows.contains { $0.latenessP50Milliseconds != nil }
        // At 10M, the time to insert them all.
        let insertAll = (rows.first?.timers ?? 0) >= 10_000_000
        // Where a peer moved its timers later before cancelling them.
        let later = rows.contains { $0.rescheduleLaterNanoseconds != nil }
        table(
            [
                "peer", "schedule ns", "cancel ns",
            ]
                + (later ? ["later ns"] : []) + [
                    "CPU/timer ns", "last cb s", "lag ms", "B/timer", "peak MB",
                    "fired",
                ] + (insertAll ? ["insert all s"] : []) + (late ? ["late p50 ms", "late p99 ms"] : []) + ["note"],
            rows.map { row in
                let scatter = row.scatterBytes.map { "\($0) B of other objects between timers" }
                let lateness =
                    late
                    ? [format(row.latenessP50Milliseconds, digits: 1), format(row.latenessP99Milliseconds, digits: 1)]
                    : []
                return [
                    row.peer, format(row.scheduleNanoseconds), format(row.cancelNanoseconds),
                ] + (later ? [format(row.rescheduleLaterNanoseconds)] : []) + [
                    format(row.cpuPerTimerNanoseconds), format(row.lastCallbackSeconds, digits: 3),
                    format(row.lagMilliseconds, digits: 1), format(row.bytesPerTimer), format(row.peakMegabytes),
                    row.fired.map(String.init) ?? "—",
                ]
                    + (insertAll
                        ? [format(row.scheduleNanoseconds.map { $0 * Double(row.timers) / 1e9 }, digits: 2)] : [])
                    + lateness + [[scatter, row.note].compactMap { $0 }.joined(separator: "; ")]
            })
    }

    func lateness(_ rows: [LatenessResult]) {
        if json {
            for row in rows { emit(row) }
            return
        }
        out("\n## Lateness: repeating every \(format(rows.first?.intervalMicroseconds)) µs")
        table(
            ["peer", "p50 µs", "p99 µs", "max µs", "delivered", "grid slots", "p99 of each run µs"],
            rows.map {
                [
                    $0.peer, format($0.p50Microseconds), format($0.p99Microseconds), format($0.maxMicroseconds),
                    String($0.delivered), String($0.gridSlots),
                    $0.runsP99Microseconds.map { $0.map { format($0) }.joined(separator: " / ") } ?? "",
                ]
            })
    }

    func idle(_ rows: [IdleResult]) {
        if json {
            for row in rows { emit(row) }
            return
        }
        out("\n## Idle: a 1 Hz countdown")
        table(
            ["peer", "seconds", "wake-ups/s", "CPU ms"],
            rows.map {
                [
                    $0.peer, format($0.seconds, digits: 1), format($0.wakeUpsPerSecond, digits: 2),
                    format($0.cpuMilliseconds, digits: 2),
                ]
            })
    }

    func hops(_ rows: [HopResult]) {
        if json {
            for row in rows { emit(row) }
            return
        }
        out("\n## Job hop: another thread hands work to a sleeping loop on the main thread")
        table(
            ["peer", "hops", "p50 µs", "p99 µs", "max µs"],
            rows.map {
                [
                    $0.peer, String($0.hops), format($0.p50Microseconds, digits: 1),
                    format($0.p99Microseconds, digits: 1), format($0.maxMicroseconds, digits: 1),
                ]
            })
    }

    func actorCalls(_ rows: [ActorCallsResult]) {
        if json {
            for row in rows { emit(row) }
            return
        }
        out("\n## Actor: \(rows.first?.calls ?? 0) calls of an actor's method from a task")
        table(
            ["peer", "seconds", "calls/s", "CPU ms"],
            rows.map {
                [
                    $0.peer, format($0.seconds, digits: 3), format($0.callsPerSecond),
                    format($0.cpuMilliseconds, digits: 1),
                ]
            })
    }

    /// The dashboard in a pseudo-terminal: idle, rendering, input latency.
    func dashboard(_ result: DashboardResult) {
        if json {
            emit(result.render)
            emit(result.paused)
            emit(result.input)
            emit(result.running)
            emit(result.clockPaused)
            emit(result.userTimers)
            emit(result.inputWithHook)
            return
        }
        let size = "\(DashboardSession.columns)×\(DashboardSession.rows)"
        out(
            "\n## Dashboard in a pseudo-terminal (\(DashboardPeer.name), \(size), TERM=\(DashboardSession.terminalType))"
        )
        out(
            "\n#### Idle: wake-ups = voluntary context switches of all threads (+1 per thread ended); switches = voluntary + involuntary"
        )
        let scenes = [
            "paused": "every timer paused", "sms-running": "3 SMS countdowns running, the rest paused",
            "clock-paused": "the same, clock paused (space)",
            "user-timers": "\(DashboardPeer.userTimerCount) user timers at 1 Hz, the rest paused",
        ]
        table(
            ["scene", "seconds", "wake-ups/s", "main thread /s", "switches/s", "CPU ms", "threads", "bytes out"],
            [result.paused, result.running, result.clockPaused, result.userTimers].map { row in
                [
                    scenes[row.scene] ?? row.scene, format(row.seconds, digits: 1),
                    format(row.wakeUpsPerSecond, digits: 2),
                    format(row.mainThreadWakeUpsPerSecond, digits: 2), format(row.switchesPerSecond, digits: 2),
                    format(row.cpuMilliseconds, digits: 2),
                    String(row.threads) + (row.threadsEnded > 0 ? " (\(row.threadsEnded) ended)" : ""),
                    String(row.bytesWritten),
                ]
            })
        let render = result.render
        out("\n#### Rendering: the ticker's display link at \(render.framesPerSecond) fps")
        table(
            ["seconds", "frames", "bytes", "B/frame", "writes/frame", "CPU %", "wake-ups/s"],
            [
                [
                    format(render.seconds, digits: 1), String(render.frames), String(render.bytes),
                    format(render.bytesPerFrame), format(render.writesPerFrame, digits: 2),
                    format(render.cpuPercent, digits: 2),
                    format(render.wakeUpsPerSecond, digits: 1),
                ]
            ])
        let input = result.input
        out("\n#### Input latency: ↓/↑ written to the terminal → first byte of the screen update")
        table(
            ["while", "keys", "answered", "p50 µs", "p99 µs", "max µs"],
            [(input, "every timer paused"), (result.inputWithHook, "a timer's hook hangs (sleep 20)")].map {
                input, label in
                [
                    label, String(input.keys), String(input.answered), format(input.p50Microseconds),
                    format(input.p99Microseconds), format(input.maxMicroseconds),
                ]
            })
        if result.exitStatus != 0 { out("\n(timerdeck exited with wait status \(result.exitStatus) after q)") }
    }

    func callouts(_ rows: [CalloutResult]) {
        if json {
            for row in rows { emit(row) }
            return
        }
        out(
            "\n## CPU per callout: each timer kind on a virtual loop, one-shot callouts due over 1 s (the display link: frames)"
        )
        table(
            ["peer", "callouts", "make ns", "CPU/callout ns", "fired"],
            rows.map {
                [
                    $0.peer, String($0.callouts), format($0.makeNanoseconds), format($0.cpuPerCalloutNanoseconds),
                    String($0.fired),
                ]
            })
    }

    func tails(_ rows: [TailsResult]) {
        if json {
            for row in rows { emit(row) }
            return
        }
        let reading = rows.map(\.emptyReadingNanoseconds).max() ?? 0
        out(
            "\n## Tails: each operation timed alone (ns; HdrHistogram, 3 digits; two cycle-counter readings cost \(reading) ns and are in every figure)"
        )
        let header: [String] = [
            "peer", "pending", "schedule p50", "p99", "p99.9", "max", "cancel p50", "p99", "p99.9", "max",
            "fire p50", "p99", "p99.9", "max",
        ]
        table(
            header,
            rows.map { row -> [String] in
                let figures: [String] = [row.schedule, row.cancel, row.fire].flatMap { tail -> [String] in
                    [String(tail.p50), String(tail.p99), String(tail.p999), String(tail.max)]
                }
                return [row.peer, String(row.pending)] + figures
            })
    }

    func kernelTimer(_ rows: [KernelTimerResult]) {
        if json {
            for row in rows { emit(row) }
            return
        }
        out("\n## The kernel's timer: timerfd_settime calls and wake-ups, counted by the loop")
        table(
            [
                "peer", "workload", "tolerance ms", "operations", "timerfd_settime", "per 1,000 ops", "early expiries",
                "wake-ups", "CPU/op ns",
            ],
            rows.map { row -> [String] in
                let tolerance = format(Nanoseconds.milliseconds(row.toleranceNanoseconds))
                let perThousand = format(row.settingsPerThousandOperations, digits: 2)
                let counts = [String(row.timerfdSettings), perThousand, String(row.earlyExpiries), String(row.wakeUps)]
                return [row.peer, row.workload, tolerance, String(row.operations)] + counts
                    + [format(row.cpuPerOperationNanoseconds)]
            })
    }

    func virtualDay(_ result: VirtualDayResult) {
        if json { return emit(result) }
        out("\n## Virtual time: a simulated stretch with a 60 fps display link, 1,000 timers, 100 sleeping tasks")
        table(
            ["peer", "simulated h", "frames", "timer fires", "sleeper wakes", "CPU s", "wall s"],
            [
                [
                    result.peer, String(result.simulatedSeconds / 3_600), String(result.displayLinkFrames),
                    String(result.timerFires), String(result.sleeperWakes), format(result.cpuSeconds, digits: 2),
                    format(result.wallSeconds, digits: 2),
                ]
            ])
    }

    /// A section that was not run, and why.
    func skipped(_ text: String) {
        if json { return emit(["skipped": text]) }
        out("\n" + text)
    }

    private func emit<Value: Encodable>(_ value: Value) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        if let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) { Swift.print(text) }
    }

    private func format(_ value: Double?, digits: Int = 0) -> String {
        guard let value else { return "—" }
        return String(format: "%.\(digits)f", value)
    }

    private func table(_ header: [String], _ rows: [[String]]) {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        for (index, row) in all.enumerated() {
            out(
                "| "
                    + row.enumerated().map {
                        $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0)
                    }
                    .joined(separator: " | ") + " |")
            if index == 0 {
                out("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
            }
        }
    }
}
