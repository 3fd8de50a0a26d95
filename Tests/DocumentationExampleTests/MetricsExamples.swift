import CoreMetrics
import RunLoopKit

// The code example of RunLoopKit's swift-metrics reporting as written in its documentation comment,
// compiled, not run (ExampleCoverageTests checks that it is here; bootstrapping the metrics system
// twice in one process traps, so it must not run beside the tests that use MetricsTestKit).

private func reportMetricsExample(loop: RunLoop, myFactory: any MetricsFactory, samplingTimer: RunLoopKit.Timer) {
    MetricsSystem.bootstrap(myFactory)
    loop.reportMetrics(dimensions: [("instance", "deck-17")])
    loop.setMetricsName("sampler", for: samplingTimer)
}
