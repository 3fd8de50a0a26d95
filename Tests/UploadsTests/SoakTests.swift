import Foundation
import TestSupport
import Testing
import Uploads

/// A small soak in every test run: 20 minutes stand in for a day (retention one "day"), uploads every
/// 5 minutes to the loopback collector. It checks correctness, not speed: `timerdeck-soak` has the
/// 30-day figures.
@Suite struct SoakTests {
    @Test(
        "Five simulated retention periods (20 min each): every seq arrives once, nothing is lost, the outbox file stops growing"
    )
    func outboxReachesASteadyStateAndEverySeqArrivesOnce() throws {
        let scratch = try ScratchDirectory()
        let collector = try CollectorProcess()
        let outbox = try Outbox(
            url: scratch.path("outbox.sqlite"), retention: OutboxRetention(age: .seconds(1_200), count: nil))
        let route = try RouteReplay(contentsOf: URL(fileURLWithPath: RouteReplayTests.resourcePath))
        let soak = UploadSoak(
            outbox: outbox, sampler: route, sink: try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30)),
            simulatedDay: .seconds(1_200))
        var days: [UploadSoak.Day] = []
        let left = try soak.run(days: 5) { days.append($0) }

        #expect(left == 0)
        #expect(days.allSatisfy { $0.unsaved == 0 })
        let received = try collector.received()
        #expect(received.seqs == Array(1...1_200), "every seq once, in order")
        #expect(received.duplicates == 0)
        #expect(days.last?.counters.deliveredSamples == 1_200)
        // Retention keeps one period of acknowledged samples and hands freed pages back: from the
        // second period on, the file does not grow.
        let sizes = days.map(\.databaseSize)
        #expect(sizes.dropFirst(2).allSatisfy { $0 <= sizes[1] + 8 * 4_096 }, "database sizes by period: \(sizes)")
        #expect(days.allSatisfy { $0.logSize <= 4 * 1_048_576 + 65_536 }, "log sizes: \(days.map(\.logSize))")
    }
}
