import Glibc
import TestSupport
import Testing

@testable import RunLoopKit

/// RunLoopKit against ``ReferenceModel`` under seeded random operations (runloop-reference 1.1–1.4):
/// timers added to and removed from modes and `.common`, `addCommonMode`, fire-date changes,
/// invalidation, perform blocks, sleeps on the loop's clock (C-X2), runs of every mode, and callouts
/// that work late or run nested.
///
/// `swift test` runs 10 000 operations. For a long run set `RUNLOOPKIT_MODEL_OPERATIONS`
/// (`RUNLOOPKIT_MODEL_OPERATIONS=1000000 swift test --filter ModelTests`), and
/// `RUNLOOPKIT_MODEL_SEED` to replay a seed. A divergence prints the seed and the shortest failing
/// prefix of operations.
@Suite("Random operations against a reference model (runloop-reference 1.1–1.4)")
struct ModelTests {
    enum Operation: CustomStringConvertible {
        case addTimer(fireIn: Int64, interval: Int64, work: Int64, nested: (String, Int64)?, mode: String)
        case add(timer: Int, mode: String)
        case remove(timer: Int, mode: String)
        case addCommonMode(String)
        case setFireDate(timer: Int, offset: Int64)
        case invalidate(timer: Int)
        case perform(modes: [String])
        case sleep(fireIn: Int64, modes: [String])
        case run(mode: String, duration: Int64)

        var description: String {
            switch self {
            case .addTimer(let fireIn, let interval, let work, let nested, let mode):
                "addTimer(fireIn: \(fireIn), interval: \(interval), work: \(work), nested: \(nested.map { "\($0.0) for \($0.1)" } ?? "none"), mode: \(mode))"
            case .add(let timer, let mode): "add(t\(timer), \(mode))"
            case .remove(let timer, let mode): "remove(t\(timer), \(mode))"
            case .addCommonMode(let mode): "addCommonMode(\(mode))"
            case .setFireDate(let timer, let offset): "setFireDate(t\(timer), now + \(offset))"
            case .invalidate(let timer): "invalidate(t\(timer))"
            case .perform(let modes): "perform(\(modes))"
            case .sleep(let fireIn, let modes): "sleep(now + \(fireIn), inModes: \(modes))"
            case .run(let mode, let duration): "run(\(mode), for: \(duration))"
            }
        }
    }

    static let modes = ["default", "tracking", "custom"]
    static let ms: Int64 = 1_000_000
    static let maxTimers = 48

    /// Generates operation `index` of a run: timer ids refer to timers created by earlier operations.
    static func generate(_ random: inout TimerQueueTests.SplitMix, timerCount: Int) -> Operation {
        func mode(common: Bool) -> String {
            let pick = random.next(common ? 4 : 3)
            return pick == 3 ? "common" : modes[pick]
        }
        let roll = random.next(100)
        // At most `maxTimers` timers, so that each step stays cheap: later additions re-add old ones.
        if timerCount == 0 || (roll < 20 && timerCount < maxTimers) {
            let interval = random.next(3) == 0 ? 0 : Int64(10 + random.next(190)) * ms
            let work = [0, 0, 5, 50, 150][random.next(5)] * ms
            let nested: (String, Int64)? =
                random.next(10) == 0 ? (mode(common: false), Int64(random.next(300)) * ms) : nil
            return .addTimer(
                fireIn: Int64(random.next(500)) * ms - 50 * ms, interval: interval, work: work,
                nested: nested, mode: mode(common: true))
        }
        let timer = random.next(timerCount)
        switch roll {
        case ..<25: return .add(timer: timer, mode: mode(common: true))
        case ..<30:
            return .sleep(
                fireIn: Int64(random.next(400)) * ms - 50 * ms,
                modes: [mode(common: false)] + (random.next(2) == 0 ? [mode(common: false)] : []))
        case ..<40: return .remove(timer: timer, mode: mode(common: true))
        case ..<44: return .addCommonMode(modes[1 + random.next(2)])
        case ..<54: return .setFireDate(timer: timer, offset: Int64(random.next(400)) * ms - 100 * ms)
        case ..<60: return .invalidate(timer: timer)
        case ..<68: return .perform(modes: [mode(common: true)] + (random.next(2) == 0 ? [mode(common: true)] : []))
        default:
            return .run(
                mode: random.next(10) == 0 ? "common" : mode(common: false), duration: Int64(random.next(400)) * ms)
        }
    }

    /// The run loop under test, driven by the same operations as the model.
    final class System {
        let clock = VirtualClock()
        let loop: RunLoop
        var timers: [Timer] = []
        var log: [String] = []
        var blockCount = 0
        var sleepCount = 0

        init() {
            loop = RunLoop(timeSource: .virtual(clock))
        }

        var now: Int64 { loop.now.nanoseconds }

        func apply(_ operation: Operation) -> String? {
            switch operation {
            case .addTimer(let fireIn, let interval, let work, let nested, let mode):
                let id = timers.count
                let timer = Timer(
                    fireAt: Instant(nanoseconds: now + fireIn), interval: .nanoseconds(interval),
                    repeats: interval > 0
                ) { [unowned self] _ in
                    log.append("t\(id)@\(now)")
                    clock.busy(.nanoseconds(work))
                    if let (mode, duration) = nested {
                        let result = loop.run(
                            mode: RunLoop.Mode(rawValue: mode), until: Instant(nanoseconds: now + duration))
                        log.append("n\(id):\(result)@\(now)")
                    }
                }
                timers.append(timer)
                loop.add(timer, forMode: RunLoop.Mode(rawValue: mode))
            case .add(let timer, let mode): loop.add(timers[timer], forMode: RunLoop.Mode(rawValue: mode))
            case .remove(let timer, let mode): loop.remove(timers[timer], forMode: RunLoop.Mode(rawValue: mode))
            case .addCommonMode(let mode): loop.addCommonMode(RunLoop.Mode(rawValue: mode))
            case .setFireDate(let timer, let offset): timers[timer].fireDate = Instant(nanoseconds: now + offset)
            case .invalidate(let timer): timers[timer].invalidate()
            case .perform(let modes):
                let id = blockCount
                blockCount += 1
                loop.perform(inModes: modes.map { RunLoop.Mode(rawValue: $0) }) { [unowned self] in
                    log.append("b\(id)@\(now)")
                }
            case .sleep(let fireIn, let modes):
                let id = sleepCount
                sleepCount += 1
                let deadline = Instant(nanoseconds: now + fireIn)
                let handle = loop.handle
                let system = LoopBound(self, on: loop)
                Task(executorPreference: loop.taskExecutor) {
                    try await handle.sleep(until: deadline, inModes: modes.map { RunLoop.Mode(rawValue: $0) })
                    system.value.log.append("s\(id)@\(system.value.now)")
                }
            case .run(let mode, let duration):
                return "\(loop.run(mode: RunLoop.Mode(rawValue: mode), until: Instant(nanoseconds: now + duration)))"
            }
            return nil
        }
    }

    static func apply(_ operation: Operation, to model: ReferenceModel, blockCount: inout Int) -> String? {
        switch operation {
        case .addTimer(let fireIn, let interval, let work, let nested, let mode):
            let id = model.addTimer(fire: model.now + fireIn, interval: interval, work: work, nested: nested)
            model.add(id, mode: mode)
        case .add(let timer, let mode): model.add(timer, mode: mode)
        case .remove(let timer, let mode): model.remove(timer, mode: mode)
        case .addCommonMode(let mode): model.addCommonMode(mode)
        case .setFireDate(let timer, let offset): model.setFireDate(timer, model.now + offset)
        case .invalidate(let timer): model.invalidate(timer)
        case .perform(let modes):
            model.perform(blockCount, modes: modes)
            blockCount += 1
        case .sleep(let fireIn, let modes):
            model.sleep(model.sleeperCount, until: model.now + fireIn, modes: modes)
        case .run(let mode, let duration): return model.run(mode: mode, until: model.now + duration)
        }
        return nil
    }

    /// What differs between the system and the model after an operation, or `nil`.
    static func difference(_ system: System, _ model: ReferenceModel, results: (String?, String?)) -> String? {
        if results.0 != results.1 { return "run result \(results.0 ?? "-") vs model \(results.1 ?? "-")" }
        if system.now != model.now { return "now \(system.now) vs model \(model.now)" }
        if system.log != model.log {
            let index =
                zip(system.log, model.log).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(system.log.count, model.log.count)
            return
                "log from entry \(index): \(system.log.dropFirst(index).prefix(5)) vs model \(model.log.dropFirst(index).prefix(5))"
        }
        for (id, timer) in system.timers.enumerated() {
            let expected = model.timers[id]
            let modes = Set(timer.modes.map(\.rawValue))
            if timer.isValid != expected.valid || modes != Set(expected.modes.keys)
                || timer.fireDate.nanoseconds != expected.fire
            {
                return "t\(id): valid \(timer.isValid), modes \(modes.sorted()), fire \(timer.fireDate.nanoseconds) "
                    + "vs model \(expected.valid), \(expected.modes.keys.sorted()), \(expected.fire)"
            }
        }
        return nil
    }

    /// Runs `count` operations from `seed`; returns the index of the first divergent operation and what differed.
    static func firstDivergence(seed: UInt64, count: Int) -> (index: Int, detail: String, operations: [Operation])? {
        var random = TimerQueueTests.SplitMix(state: seed)
        let system = System()
        let model = ReferenceModel()
        var operations: [Operation] = []
        var modelBlocks = 0
        for index in 0..<count {
            let operation = generate(&random, timerCount: system.timers.count)
            operations.append(operation)
            let actual = system.apply(operation)
            let expected = apply(operation, to: model, blockCount: &modelBlocks)
            if let detail = difference(system, model, results: (actual, expected)) {
                return (index, detail, operations)
            }
            // Keep the logs short: both have been compared up to here.
            if system.log.count > 64 {
                system.log.removeAll()
                model.resetLog()
            }
        }
        return nil
    }

    @Test("RunLoop matches the reference model over seeded random operations (10 000 by default)")
    func randomOperationsMatchModel() {
        let environment = getenv("RUNLOOPKIT_MODEL_OPERATIONS").map { String(cString: $0) }
        let count = environment.flatMap(Int.init) ?? 10_000
        let seed = getenv("RUNLOOPKIT_MODEL_SEED").map { String(cString: $0) }.flatMap(UInt64.init) ?? 20_261_123
        if let divergence = Self.firstDivergence(seed: seed, count: count) {
            let prefix = divergence.operations.prefix(divergence.index + 1).enumerated()
                .map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
            Issue.record(
                """
                RunLoop diverged from the reference model: seed \(seed), operation \(divergence.index): \(divergence.detail)
                shortest failing prefix (\(divergence.index + 1) operations):
                \(prefix)
                """)
        }
    }
}
