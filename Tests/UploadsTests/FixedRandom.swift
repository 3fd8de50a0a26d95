/// A random number generator that always returns the same value, for deterministic jitter.
///
/// RetryPolicy draws its jitter share from the top 53 bits of `next()`, so `.zero` gives 0,
/// `.half` gives exactly 0.5 and `.almostOne` gives the largest value below 1.
struct FixedRandom: RandomNumberGenerator {
    let value: UInt64

    static let zero = FixedRandom(value: 0)
    static let half = FixedRandom(value: 1 << 63)
    static let almostOne = FixedRandom(value: .max)

    mutating func next() -> UInt64 { value }
}
