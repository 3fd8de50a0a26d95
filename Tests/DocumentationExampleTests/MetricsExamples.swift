import CoreMetrics
import RunLoopKit

// The example of RunLoopKit's swift-metrics reporting, compiled (not run) in a file of its own:
// CoreMetrics has a `Timer` of its own, which the other example files must not see.

private func reportMetricsExample(loop: RunLoop, myFactory: any MetricsFactory, samplingTimer: RunLoopKit.Timer) {
    MetricsSystem.bootstrap(myFactory)
    loop.reportMetrics(dimensions: [("instance", "deck-17")])
    loop.setMetricsName("sampler", for: samplingTimer)
}
