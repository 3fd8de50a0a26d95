import RunLoopKitFoundationCompat

import class RunLoopKit.RunLoop

extension CalloutBench {
    /// `count` one-shot Foundation-named timers on `loop`, due over one second, each calling `callout`.
    static func compatTimers(count: Int, on loop: RunLoopKit.RunLoop, callout: @escaping () -> Void)
        -> [AnyObject]
    {
        var spread = DeadlineSpread()
        return RunLoopKit.RunLoop.withCurrent(loop) {
            (0..<count).map { _ in
                let seconds = Double(1 + spread.next(below: 1_000_000_000)) / 1e9
                let timer = Timer(timeInterval: seconds, repeats: false) { _ in callout() }
                RunLoopKitFoundationCompat.RunLoop.current.add(timer, forMode: .default)
                return timer
            }
        }
    }
}
