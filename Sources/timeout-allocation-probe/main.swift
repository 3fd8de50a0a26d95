import CAllocationCounter
import RunLoopKit

// Counts heap allocations in steady state, for the tests, and prints one line per operation: its
// name, the timers it handled and the allocations it made. First a control that makes one object
// a step, then `Timer`s made, added and invalidated (their objects are allocations of their own;
// their blocks capture nothing, one object or two). Then a TimeoutSet's operations: one round of
// schedule, reschedule later, reschedule earlier, cancel and fire grows the set's buffers, then the
// same round again is counted, operation by operation, on a virtual clock (no timing); "fire" is a
// run that fires them, less a run that fires one ("run").

/// Counts the timeouts that fired.
final class Counter: TimeoutHandler {
    var fired = 0
    func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) { fired += 1 }
}

let count = 10_000

/// Runs `body` over every index and returns the allocations it made.
func counted(_ body: (Int) -> Void) -> Int {
    ac_start()
    for index in 0..<count { body(index) }
    return ac_stop()
}

/// An object per control step: the counter must count each.
final class Allocated {
    var value = 0
}

var kept: [Allocated] = []
kept.reserveCapacity(count)
print("control \(count) \(counted { _ in kept.append(Allocated()) })")

/// Made, added and invalidated, a round to grow the loop's buffers and a round counted: on the
/// system clock, before any VirtualClock exists (while one does, a timer keeps where it was made,
/// in an allocation of its own), with deadlines an hour away.
let timerLoop = RunLoop()
var timers: [Timer] = []
timers.reserveCapacity(count)
let owner = Allocated()
for round in 0..<2 {
    timers.removeAll(keepingCapacity: true)
    let base = timerLoop.now + .seconds(3_600)
    let plain = counted {
        let timer = Timer(fireAt: base + .milliseconds(Int64($0 % 97)), interval: .zero, repeats: false) { timer in
            timer.userInfo = nil
        }
        timerLoop.add(timer, forMode: .default)
        timers.append(timer)
    }
    let invalidated = counted { timers[$0].invalidate() }
    timers.removeAll(keepingCapacity: true)
    let captured = owner
    let capturing = counted {
        let timer = Timer(fireAt: base + .milliseconds(Int64($0 % 97)), interval: .zero, repeats: false) { _ in
            captured.value += 1
        }
        timerLoop.add(timer, forMode: .default)
        timers.append(timer)
    }
    for timer in timers { timer.invalidate() }
    timers.removeAll(keepingCapacity: true)
    let other = Allocated()
    let twoCaptures = counted {
        let timer = Timer(fireAt: base + .milliseconds(Int64($0 % 97)), interval: .zero, repeats: false) { _ in
            captured.value += other.value
        }
        timerLoop.add(timer, forMode: .default)
        timers.append(timer)
    }
    for timer in timers { timer.invalidate() }
    guard round == 1 else { continue }
    print("timer-schedule-two-captures \(count) \(twoCaptures)")
    print("timer-schedule \(count) \(plain)")
    print("timer-invalidate \(count) \(invalidated)")
    print("timer-schedule-capturing \(count) \(capturing)")
}

let clock = VirtualClock()
let loop = RunLoop(timeSource: .virtual(clock))
let counter = Counter()
let timeouts = TimeoutSet(on: loop, tolerance: .microseconds(10), handler: counter)
var handles: [TimeoutSet.Timeout] = []
handles.reserveCapacity(count)
for index in 0..<count { handles.append(timeouts.schedule(at: loop.now + .milliseconds(index % 97))) }
for handle in handles { timeouts.cancel(handle) }

for round in 0..<2 {
    let base = loop.now
    let scheduled = counted {
        handles[$0] = timeouts.schedule(at: base + .milliseconds(Int64($0 % 97)), tag: UInt64($0))
    }
    let later = counted { timeouts.reschedule(handles[$0], to: base + .milliseconds(200 + Int64($0 % 89))) }
    let earlier = counted { timeouts.reschedule(handles[$0], to: base + .milliseconds(100 + Int64($0 % 83))) }
    let cancelled = counted { if $0 % 2 == 0 { timeouts.cancel(handles[$0]) } }
    let firedBefore = counter.fired
    ac_start()
    loop.run(until: base + .seconds(1))
    let fired = ac_stop()
    // The same run with one timeout: what a call to `run` allocates whatever it fires (its per-run
    // record), to take off the figure above.
    timeouts.schedule(at: loop.now + .milliseconds(1))
    ac_start()
    loop.run(until: loop.now + .seconds(1))
    let run = ac_stop()
    guard round == 1 else { continue }
    print("schedule \(count) \(scheduled)")
    print("reschedule-later \(count) \(later)")
    print("reschedule-earlier \(count) \(earlier)")
    print("cancel \(count / 2) \(cancelled)")
    print("fire \(counter.fired - firedBefore - 1) \(fired - run)")
    print("run 1 \(run)")
}
timeouts.invalidate()
