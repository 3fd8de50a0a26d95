import AppPlatform
import Foundation
import RunLoopKit
import TerminalUI
import TestSupport
import Testing
import TimeUnits

@testable import TimerDeck

/// The dashboard's own files (the timers written back to a config, the trace, the recording) under
/// seeded faults of the platform layer (`FaultInjection`).
@Suite struct DashboardFaultInjectionTests {
    @Test(
        "Under seeded I/O faults W replaces the config whole or leaves it as it was, and the trace and the recording end with words",
        arguments: 1...12 as ClosedRange<UInt64>)
    func filesUnderFaults(seed: UInt64) throws {
        let scratch = try ScratchDirectory()
        let configPath = try scratch.write("# mine\n", to: "timers.toml")
        let config = try Config.parse(WriteTimersTests.config)
        let typing = configPath.map { "key \($0)" }.joined(separator: "\n")
        let script = try HeadlessScript(
            parsing: "size 200x40\nkey W\n\(typing)\nkey enter\nkey enter\nsnapshot\nwait 30s\nsnapshot\nquit\n")
        let faults = FaultInjection(seed: seed, under: scratch.url.path, oneIn: 3)
        var lines: [String] = []
        var words: [String] = []
        faults.run {
            let trace: TraceFile?
            do throws(TraceFileError) {
                trace = try TraceFile(path: scratch.path("trace.jsonl").path)
            } catch {
                words.append(error.message)
                trace = nil
            }
            do throws(TraceFileError) {
                let recorder = try SessionRecorder(path: scratch.path("session.txt").path)
                recorder.begin(size: Size(width: 200, height: 40), at: .zero)
                for second in 1...50 as ClosedRange<Int64> {
                    recorder.input(at: Instant(nanoseconds: second * Nanoseconds.perSecond))
                    recorder.key(.character("s"), quits: false)
                }
                recorder.finish(at: Instant(nanoseconds: 51 * Nanoseconds.perSecond))
                if let failure = recorder.failure { words.append(failure) }
            } catch {
                words.append(error.message)
            }
            do {
                let session = try HeadlessSession(
                    config: config, uploads: nil, script: script, trace: trace
                ) { lines.append($0) }
                session.run()
            } catch {
                Issue.record("the session did not start: \(error)")
            }
            if let failure = trace?.failure { words.append(failure) }
        }

        let screen = lines.joined(separator: "\n")
        let written = try String(contentsOfFile: configPath, encoding: .utf8)
        let replaced = screen.contains("wrote the timers to")
        if replaced {
            #expect(try Config.load(from: configPath).timers == config.timers, "seed \(seed)")
        } else {
            #expect(written == "# mine\n", "seed \(seed): a failed write leaves the file as it was")
            #expect(screen.contains("could not write the timers to"), "seed \(seed)")
            #expect(screen.contains("nothing there was changed"), "seed \(seed)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
        #expect(left.allSatisfy { !$0.hasPrefix(".") }, "seed \(seed): no temporary file left: \(left)")
        for word in words {
            #expect(word.contains("No space left on device") || word.contains("Too many open files"), "\(word)")
            #expect(word.contains("free some space") || word.contains("ulimit -n"), "\(word)")
        }
        #expect(faults.total > 0)
        print("seed \(seed): injected \(faults.total) faults; config \(replaced ? "replaced" : "kept"); said: \(words)")
    }
}
