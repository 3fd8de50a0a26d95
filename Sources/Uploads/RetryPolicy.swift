import Foundation

/// How long to wait before delivering a batch again: exponential backoff with jitter,
/// or the server's `Retry-After` when it sent one.
///
/// The n-th consecutive failure waits `base × factor^(n-1)`, capped at `cap`, minus a random
/// share of up to `jitter` of it (so clients that failed together spread out). A pure value:
/// the randomness comes from the generator passed in, so a test can fix it.
///
/// ```swift
/// let policy = RetryPolicy(base: .seconds(5), factor: 2, cap: .seconds(300), jitter: 0.5)
/// let wait = policy.delay(afterAttempt: batch.failedAttempts, retryAfter: error.retryAfter, now: Date())
/// // 1st failure: 2.5...5 s, 2nd: 5...10 s, 3rd: 10...20 s, ... never over 300 s
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// The delay after the first failure, before jitter.
    public var base: Duration
    /// What each further failure multiplies the delay by; at least 1.
    public var factor: Double
    /// The longest delay backoff produces (a `Retry-After` may ask for longer and is honoured).
    public var cap: Duration
    /// The largest share of the delay that jitter removes, from 0 (none) to 1 ("full jitter").
    public var jitter: Double

    /// Creates a policy; `factor` below 1 is taken as 1 and `jitter` is clamped to 0...1.
    public init(base: Duration = .seconds(5), factor: Double = 2, cap: Duration = .seconds(300), jitter: Double = 0.5) {
        self.base = base
        self.factor = max(factor, 1)
        self.cap = cap
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The delay after `attempt` consecutive failures without jitter: `base × factor^(attempt-1)`, capped.
    ///
    /// An `attempt` below 1 counts as 1.
    public func backoff(afterAttempt attempt: Int) -> Duration {
        var delay = min(base, cap)
        var remaining = max(attempt, 1) - 1
        // Multiply step by step and stop at the cap: no overflow however many attempts.
        while remaining > 0, delay < cap {
            delay = min(delay * factor, cap)
            remaining -= 1
        }
        return delay
    }

    /// How long to wait after `attempt` consecutive failures.
    ///
    /// With `retryAfter`, exactly what the server asked (from `now`), without jitter.
    /// Otherwise ``backoff(afterAttempt:)`` minus `jitter × u` of it, where `u` is the top
    /// 53 bits of one `generator.next()` divided by 2^53 (uniform in `0..<1`).
    public func delay(
        afterAttempt attempt: Int, retryAfter: RetryAfter? = nil, now: Date,
        using generator: inout some RandomNumberGenerator
    ) -> Duration {
        if let retryAfter {
            return retryAfter.delay(from: now)
        }
        let full = backoff(afterAttempt: attempt)
        // u = top 53 bits of one draw / 2^53: uniform in 0..<1, and the same on every platform.
        let unit = Double(generator.next() >> 11) * 0x1p-53
        let share = jitter * unit
        return full - full * share
    }

    /// ``delay(afterAttempt:retryAfter:now:using:)`` with the system's random number generator.
    public func delay(afterAttempt attempt: Int, retryAfter: RetryAfter? = nil, now: Date) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(afterAttempt: attempt, retryAfter: retryAfter, now: now, using: &generator)
    }
}
