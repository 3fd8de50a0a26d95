import AsyncAlgorithms
import Glibc
import RunLoopKit
import RunLoopKitTesting
import Synchronization
import TestSupport
import Testing

/// swift-async-algorithms' time operators on `ContinuousClock()` and on the loop's `VirtualClock`,
/// run in a ``VirtualTime`` scope: each test runs its scope in a child process (the hook is
/// process-wide), 1,000 times, and fails with the first repetition that did not see exactly the
/// expected elements at the expected virtual times.
@Suite("VirtualTime: swift-async-algorithms' debounce, throttle and timer")
struct AsyncAlgorithmsVirtualTimeTests {
    @Test("debounce(for:clock:) gives the same elements at the same virtual times, 1,000 times")
    func debounceExact() async {
        await expectExactRuns(.debounce, clock: .continuous)
    }

    @Test("_throttle(for:clock:) gives the same elements at the same virtual times, 1,000 times")
    func throttleExact() async {
        await expectExactRuns(.throttle, clock: .continuous)
    }

    @Test("AsyncTimerSequence ticks at the same virtual times, 1,000 times")
    func timerExact() async {
        await expectExactRuns(.timer, clock: .continuous)
    }

    @Test("On the loop's VirtualClock, debounce gives the same elements at the same virtual times, 1,000 times")
    func debounceExactOnTheLoopsClock() async {
        await expectExactRuns(.debounce, clock: .loop)
    }

    @Test("On the loop's VirtualClock, AsyncTimerSequence ticks at the same virtual times, 1,000 times")
    func timerExactOnTheLoopsClock() async {
        await expectExactRuns(.timer, clock: .loop)
    }

    @Test("On the loop's VirtualClock, _throttle gives the same elements at the same virtual times, 1,000 times")
    func throttleExactOnTheLoopsClock() async {
        await expectExactRuns(.throttle, clock: .loop)
    }

    @Test("Without the scope the operators wait in real time: the virtual loop sees none of their elements")
    func withoutScopeTimesAreReal() async {
        await #expect(processExitsWith: .success) {
            exit(
                try OperatorCase.allCases.allSatisfy { try operatorRun($0, clock: .continuous, inScope: false).isEmpty }
                    ? 0 : 1
            )
        }
    }
}

/// Why the three operators are not exact in a scope yet: each reads `ContinuousClock.now`, which
/// is real time there. debounce stamps an element's deadline `now + interval` and, after its
/// sleep, forwards the element only if the deadline is `<= now`, so it never does before its input
/// ends (`["5 at 25 s"]`); throttle measures `start.duration(to: now)`, so no interval ever passes
/// (`["1 at 1 s", "10 at 13 s"]`); the timer sleeps until the previous deadline plus the interval,
/// real instants that the scope turns into time left from virtual now (ticks at 2, 6, 12, 20 s).
private let realClockReads: Comment =
    "ContinuousClock.now is real time in a VirtualTime scope, and these operators read it"

/// One operator's scenario: its input, produced by a task sleeping whole seconds, and what it
/// must give.
enum OperatorCase: Sendable, CaseIterable, Codable {
    /// Elements 1 and 2 a second apart, 3 and 4 five seconds later, 5 seven seconds later, the end
    /// ten seconds after; debounced for 3 s.
    case debounce
    /// Elements 1 to 10 a second apart; throttled for 3 s, keeping the latest.
    case throttle
    /// Four ticks of a 2 s timer.
    case timer

    /// The elements given, each with its virtual time since the run's start.
    var expected: [String] {
        switch self {
        case .debounce: ["2 at 5 s", "4 at 11 s", "5 at 18 s"]
        case .throttle: ["1 at 1 s", "4 at 4 s", "7 at 7 s", "10 at 10 s"]
        case .timer: ["tick at 2 s", "tick at 4 s", "tick at 6 s", "tick at 8 s"]
        }
    }

    /// The input's elements with the seconds slept before each, and the seconds slept before
    /// the end.
    var input: (elements: [(gap: Int, value: Int)], end: Int) {
        switch self {
        case .debounce: ([(1, 1), (1, 2), (5, 3), (1, 4), (7, 5)], 10)
        case .throttle: ((1...10).map { (1, $0) }, 0)
        case .timer: ([], 0)
        }
    }
}

/// The clock an operator is given: the standard library's, or the loop's own virtual clock.
enum OperatorClock: Sendable, Codable {
    case continuous
    case loop
}

/// Expects 1,000 exact runs of `operatorCase` on `clock` in a child process, which writes the
/// first run that differs (and stops there) to its standard error: the failure names it.
private func expectExactRuns(_ operatorCase: OperatorCase, clock: OperatorClock) async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        [operatorCase, clock] in
        for run in 0..<1_000 {
            let seen = try operatorRun(operatorCase, clock: clock, inScope: true)
            if seen != operatorCase.expected {
                let line = "run \(run) of \(operatorCase): \(seen), expected \(operatorCase.expected)"
                _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
                break
            }
        }
    }
    let firstDifference = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(result != nil && firstDifference.isEmpty, "\(firstDifference)")
}

/// Runs `operatorCase` on a new virtual loop — in a ``VirtualTime`` scope or, without it, for a
/// virtual hour — and returns what its consumer recorded, with the virtual time of each element.
private func operatorRun(_ operatorCase: OperatorCase, clock choice: OperatorClock, inScope: Bool) throws -> [String] {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    let log = Mutex<[String]>([])
    let record: @Sendable (String) -> Void = { name in
        let seconds = clock.now().nanoseconds / 1_000_000_000
        log.withLock { $0.append("\(name) at \(seconds) s") }
    }
    let start: @Sendable () -> Void = {
        let (input, continuation) = AsyncStream.makeStream(of: Int.self)
        let (elements, end) = operatorCase.input
        Task {
            for element in elements {
                try? await Task.sleep(for: .seconds(element.gap))
                continuation.yield(element.value)
            }
            try? await Task.sleep(for: .seconds(end))
            continuation.finish()
        }
        Task {
            switch choice {
            case .continuous: await consume(operatorCase, input, clock: ContinuousClock(), record: record)
            case .loop: await consume(operatorCase, input, clock: clock, record: record)
            }
        }
    }
    if inScope {
        // Sleeps of whole seconds, rounded to the second: exact even if the machine is busy.
        try VirtualTime.run(on: loop, resolution: .seconds(1), start)
    } else {
        start()
        // Something in the loop, so that its run jumps a virtual hour instead of returning.
        let timer = Timer(fireAt: loop.now + .seconds(3_600), interval: .zero, repeats: false) { _ in }
        loop.add(timer, forMode: .default)
        loop.run(mode: .default)
    }
    return log.withLock { $0 }
}

/// Runs `operatorCase`'s operator over `input` on `clock`, recording each element it gives.
private func consume<C: Clock>(
    _ operatorCase: OperatorCase, _ input: AsyncStream<Int>, clock: C, record: @escaping @Sendable (String) -> Void
) async where C.Duration == Duration {
    switch operatorCase {
    case .debounce:
        for await value in input.debounce(for: .seconds(3), clock: clock) { record("\(value)") }
    case .throttle:
        for await value in input._throttle(for: .seconds(3), clock: clock) { record("\(value)") }
    case .timer:
        for await _ in AsyncTimerSequence(interval: .seconds(2), clock: clock).prefix(4) { record("tick") }
    }
}
