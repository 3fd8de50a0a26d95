import Dispatch
import Glibc
import RunLoopKitTesting
import TestSupport
import Testing

@testable import RunLoopKit

/// What a mode holds, counted and listed for tests: timers, sleepers, timeout sets and sources.
@Suite("Registrations: the timers, sleepers and sources of each mode, counted and listed")
struct RegistrationsTests {
    @Test("Each kind is counted and listed per mode, timers and sleepers by fire date, with their sites")
    func listsEveryKind() throws {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        let handle = loop.handle
        let timerLine = #line + 1
        let timer = Timer(fireAt: ms(3_000), interval: .seconds(1), repeats: true) { _ in }
        loop.add(timer, forMode: .common)
        loop.setMetricsName("beat", for: timer)
        let sleepLine = #line + 2
        Task(executorPreference: handle.taskExecutor) {
            try await handle.sleep(for: .seconds(2), inModes: [.default])
        }
        try loop.runCurrent()
        let timeouts = TimeoutSet(on: loop, forMode: .default, handler: IgnoredTimeouts())
        _ = timeouts.schedule(at: ms(5_000))
        _ = timeouts.schedule(at: ms(4_000))
        let source = RunLoop.Source(order: 0) {}
        loop.add(source, forMode: .tracking)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let reader = RunLoop.FileDescriptorSource(fileDescriptor: ends[0]) {}
        loop.add(reader, forMode: .default)

        let file = "RunLoopKitTestingTests/RegistrationsTests.swift"
        #expect(
            loop.registrations(inMode: .default).map(\.description) == [
                "sleeper due at 2.000s made at \(file):\(sleepLine) in default",
                "timer \"beat\" due at 3.000s made at \(file):\(timerLine) in default",
                "timeoutSet \"2 timeouts\" due at 4.000s in default",
                "descriptorSource \"descriptor \(ends[0])\" in default",
            ])
        #expect(
            loop.registrations(inMode: .tracking).map(\.description) == [
                "timer \"beat\" due at 3.000s made at \(file):\(timerLine) in tracking", "source in tracking",
            ])
        let counts = RunLoop.Registration.Kind.allCases.map { loop.registrationCount(of: $0, inMode: .default) }
        #expect(counts == [1, 1, 1, 0, 1])
        #expect(
            RunLoop.Registration.Kind.allCases.map { loop.registrationCount(of: $0, inMode: .tracking) } == [
                1, 0, 0, 1, 0,
            ])
        #expect(loop.registrations(inMode: "never made").isEmpty)

        try loop.advance(by: .seconds(2))
        #expect(loop.registrationCount(of: .sleeper, inMode: .default) == 0, "the sleeper woke")
        timer.invalidate()
        timeouts.invalidate()
        source.invalidate()
        reader.invalidate()
        #expect(loop.registrations(inMode: .default).isEmpty && loop.registrations(inMode: .tracking).isEmpty)
    }

    @Test("A sleeper cancelled from another thread during a pass is gone before its task resumes on the loop")
    func cancelledSleeperGoneBeforeResumption() throws {
        let (loop, _) = makeVirtualLoop()
        let handle = loop.handle
        let seen = Transcript()
        let sleeper = Task(executorPreference: handle.taskExecutor) {
            do {
                try await handle.sleep(for: .seconds(100))
            } catch {
                let left = handle.jobs.withLoop { $0.registrationCount(of: .sleeper, inMode: .default) }
                seen.append("sleepers left when resumed: \(left)")
            }
        }
        try loop.runCurrent()
        #expect(loop.registrationCount(of: .sleeper, inMode: .default) == 1)
        // The cancel comes from another thread in the middle of a pass (in a timer's callout),
        // after the pass read its inbox: the timer's removal and the task's resumption both wait.
        let canceller = Timer(fireAt: ms(1), interval: .zero, repeats: false) { _ in
            let done = DispatchSemaphore(value: 0)
            spawnThread {
                sleeper.cancel()
                done.signal()
            }
            #expect(waitBounded(done))
        }
        loop.add(canceller, forMode: .default)
        try loop.advance(by: .milliseconds(1))
        #expect(seen.entries == ["sleepers left when resumed: 0"])
    }
}

/// A timeout handler that does nothing.
private final class IgnoredTimeouts: TimeoutHandler {
    func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) {}
}
