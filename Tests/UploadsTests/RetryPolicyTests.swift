import Foundation
import Testing
import Uploads

@Suite struct RetryPolicyTests {
    let now = SampleFixtures.time(0)

    @Test func backoffDoublesUpToTheCap() {
        let policy = RetryPolicy(base: .seconds(1), factor: 2, cap: .seconds(10), jitter: 0)
        #expect(
            (1...6).map(policy.backoff(afterAttempt:)) == [
                .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10),
            ])
    }

    @Test func attemptBelowOneCountsAsTheFirst() {
        let policy = RetryPolicy(base: .milliseconds(250), factor: 3, cap: .seconds(60))
        #expect(policy.backoff(afterAttempt: 0) == .milliseconds(250))
        #expect(policy.backoff(afterAttempt: -4) == .milliseconds(250))
    }

    @Test func hugeAttemptCountsStayAtTheCap() {
        let policy = RetryPolicy(base: .seconds(5), factor: 2, cap: .seconds(300))
        #expect(policy.backoff(afterAttempt: 1_000_000) == .seconds(300))
    }

    @Test func zeroJitterDrawGivesTheFullBackoff() {
        var random = FixedRandom.zero
        let policy = RetryPolicy(base: .seconds(5), factor: 2, cap: .seconds(300), jitter: 0.5)
        let delays = (1...4).map { policy.delay(afterAttempt: $0, now: now, using: &random) }
        #expect(delays == [.seconds(5), .seconds(10), .seconds(20), .seconds(40)])
    }

    @Test func halfJitterDrawRemovesAQuarterAtJitterOneHalf() {
        var random = FixedRandom.half
        let policy = RetryPolicy(base: .seconds(4), factor: 2, cap: .seconds(30), jitter: 0.5)
        let delays = (1...5).map { policy.delay(afterAttempt: $0, now: now, using: &random) }
        #expect(delays == [.seconds(3), .seconds(6), .seconds(12), .seconds(22.5), .seconds(22.5)])
    }

    @Test func fullJitterStaysAboveZeroAndBelowTheBackoff() {
        var random = FixedRandom.almostOne
        let policy = RetryPolicy(base: .seconds(8), factor: 2, cap: .seconds(60), jitter: 1)
        let delay = policy.delay(afterAttempt: 1, now: now, using: &random)
        #expect(delay > .zero)
        #expect(delay < .nanoseconds(10))
    }

    @Test func retryAfterSecondsReplacesTheBackoff() {
        var random = FixedRandom.half
        let policy = RetryPolicy(base: .seconds(5), factor: 2, cap: .seconds(300), jitter: 1)
        #expect(
            policy.delay(afterAttempt: 3, retryAfter: .delay(.seconds(120)), now: now, using: &random) == .seconds(120))
        #expect(
            policy.delay(afterAttempt: 3, retryAfter: .delay(.seconds(900)), now: now, using: &random) == .seconds(900))
    }

    @Test func retryAfterDateCountsFromNow() {
        var random = FixedRandom.zero
        let policy = RetryPolicy()
        let later = RetryAfter.date(now.addingTimeInterval(90))
        let earlier = RetryAfter.date(now.addingTimeInterval(-90))
        #expect(policy.delay(afterAttempt: 1, retryAfter: later, now: now, using: &random) == .seconds(90))
        #expect(policy.delay(afterAttempt: 1, retryAfter: earlier, now: now, using: &random) == .zero)
    }

    @Test func outOfRangeSettingsAreClamped() {
        let policy = RetryPolicy(base: .seconds(1), factor: 0.5, cap: .seconds(10), jitter: 3)
        #expect(policy.factor == 1)
        #expect(policy.jitter == 1)
        #expect(policy.backoff(afterAttempt: 5) == .seconds(1))
    }
}
