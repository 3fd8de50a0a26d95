import Foundation

/// Something that takes a ``Sample`` when asked: a route replay, host metrics.
///
/// Sampling is synchronous and quick (memory or a `/proc` file), meant to run in a timer
/// callback on the run loop thread. The wall time is passed in, never read behind the
/// caller's back, so tests decide it.
///
/// ```swift
/// var sampler: any Sampler = try RouteReplay(contentsOf: routeURL)
/// let sample = try sampler.sample(at: Date())
/// try outbox.append(sample)
/// ```
public protocol Sampler {
    /// The kind of every sample this sampler takes.
    var kind: SampleKind { get }

    /// Takes the next sample, stamped with `time`.
    mutating func sample(at time: Date) throws(SamplerError) -> Sample
}
