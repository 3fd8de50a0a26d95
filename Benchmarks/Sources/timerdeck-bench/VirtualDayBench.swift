import RunLoopKit
import RunLoopKitTesting

/// A simulated day on a virtual clock: a 60 fps display link, 1,000 repeating timers (every 1 s to
/// 1,000 s) and 100 tasks sleeping in a loop (every 10 s to 1,000 s), moved through with
/// `RunLoop.advance(by:)` — the CPU it takes to simulate, with every callout counted.
enum VirtualDayBench {
    static func run(hours: Int) throws -> VirtualDayResult {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        var frames = 0
        var timerFires = 0
        let link = DisplayLink(refreshRate: 60) { _ in frames += 1 }
        link.add(to: loop, forMode: .default)
        let timers = (1...1_000).map { index in
            Timer.scheduledTimer(withInterval: .seconds(index), repeats: true, on: loop) { _ in timerFires += 1 }
        }
        let handle = loop.handle
        let wakes = SleeperWakes()
        for index in 1...100 {
            Task(executorPreference: handle.taskExecutor) {
                while !Task.isCancelled {
                    try await handle.sleep(for: .seconds(10 * index))
                    wakes.add()
                }
            }
        }
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        try loop.advance(by: .seconds(3_600 * hours))
        let wall = monotonicNanoseconds() - start
        let cpu = ResourceUsage.now().cpuNanoseconds - before.cpuNanoseconds
        link.invalidate()
        for timer in timers { timer.invalidate() }
        return VirtualDayResult(
            peer: "RunLoopKit virtual time", simulatedSeconds: 3_600 * hours, displayLinkFrames: frames,
            timerFires: timerFires, sleeperWakes: wakes.count, cpuSeconds: Double(cpu) / 1e9,
            wallSeconds: Double(wall) / 1e9)
    }
}

/// The sleepers' wake-ups, counted on the loop's thread (the tasks run there).
private final class SleeperWakes: @unchecked Sendable {
    // Only touched by tasks that prefer the loop's task executor, so on the loop's thread, one at a time.
    private(set) var count = 0

    func add() {
        count += 1
    }
}

/// One simulated stretch of virtual time and the CPU it took.
struct VirtualDayResult: Codable {
    var peer: String
    var simulatedSeconds: Int
    var displayLinkFrames: Int
    var timerFires: Int
    var sleeperWakes: Int
    var cpuSeconds: Double
    var wallSeconds: Double
}
