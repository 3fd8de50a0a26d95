import CoreMetrics
import Foundation
import Synchronization
import TimeUnits

/// Takes a run loop's health as samples: a swift-metrics backend for
/// ``RunLoopKit/RunLoop/reportMetrics(label:dimensions:factory:)`` that keeps what the loop reports
/// and hands it out as a ``SampleFields/loop(_:)`` sample at each ``sample(at:)``.
///
/// Each metric of the loop is one ``LoopReading``, labelled by its dimensions (`mode`, `timer`,
/// `reason`); remote write adds `instance`, so a fleet's timer lateness is one query away:
///
/// | the loop reports | the reading | value |
/// |---|---|---|
/// | a Counter `x` (fires, missed ticks, wake-ups, passes, time asleep) | `x_total` | the total since reporting began |
/// | a Timer `x` (lateness) | `x_max_seconds` | the largest since the previous sample; left out when none |
/// | a Gauge or Recorder `x` (share asleep) | `x` | the last value |
///
/// ```swift
/// let health = LoopHealthSampler()
/// loop.reportMetrics(factory: health)
/// let pipeline = UploadPipeline(loop: loop, outbox: outbox, sampler: health, sink: sink)
/// ```
public final class LoopHealthSampler: Sampler, MetricsFactory, Sendable {
    /// One series: a metric's label and its dimensions.
    struct Series: Hashable, Comparable {
        let name: String
        let labels: [String: String]

        static func < (lhs: Series, rhs: Series) -> Bool {
            (lhs.name, lhs.labels.sorted { $0.key < $1.key }.description)
                < (rhs.name, rhs.labels.sorted { $0.key < $1.key }.description)
        }
    }

    /// What the loop has reported.
    private struct Readings {
        var totals: [Series: Int64] = [:]
        var lastValues: [Series: Double] = [:]
        /// The largest duration of each Timer since the previous sample, in nanoseconds.
        var largest: [Series: Int64] = [:]
    }

    private let readings = Mutex(Readings())

    /// Always ``SampleKind/loop``.
    public var kind: SampleKind { .loop }

    /// A backend with nothing reported yet.
    public init() {}

    /// The loop's readings now, stamped with `time`, in series order; a Timer's largest duration
    /// starts over.
    public func sample(at time: Date) throws(SamplerError) -> Sample {
        let values = readings.withLock { (readings: inout Readings) -> [Series: Double] in
            var values: [Series: Double] = [:]
            for (series, total) in readings.totals {
                values[Series(name: series.name + "_total", labels: series.labels)] = Double(total)
            }
            for (series, value) in readings.lastValues { values[series] = value }
            for (series, largest) in readings.largest {
                values[Series(name: series.name + "_max_seconds", labels: series.labels)] = Nanoseconds.seconds(largest)
            }
            readings.largest = [:]
            return values
        }
        return Sample(
            takenAt: time,
            fields: .loop(
                values.sorted { $0.key < $1.key }.map {
                    LoopReading(name: $0.key.name, labels: $0.key.labels, value: $0.value)
                }))
    }

    // MARK: MetricsFactory

    /// A counter whose total each sample reads as `label_total`.
    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        Handler(sampler: self, series: Self.series(label, dimensions))
    }

    /// A recorder or gauge whose last value each sample reads as `label`.
    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        Handler(sampler: self, series: Self.series(label, dimensions))
    }

    /// A timer whose largest duration since the previous sample each sample reads as `label_max_seconds`.
    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        Handler(sampler: self, series: Self.series(label, dimensions))
    }

    /// The series stay: a counter's total outlives its handle.
    public func destroyCounter(_ handler: any CounterHandler) {}
    /// The series stay: a gauge's last value outlives its handle.
    public func destroyRecorder(_ handler: any RecorderHandler) {}
    /// The series stay until the next sample.
    public func destroyTimer(_ handler: any TimerHandler) {}

    private static func series(_ label: String, _ dimensions: [(String, String)]) -> Series {
        Series(name: label, labels: Dictionary(dimensions, uniquingKeysWith: { _, last in last }))
    }

    /// One metric's handle: it writes into the sampler's readings.
    private final class Handler: CounterHandler, RecorderHandler, TimerHandler, Sendable {
        let sampler: LoopHealthSampler
        let series: Series

        init(sampler: LoopHealthSampler, series: Series) {
            self.sampler = sampler
            self.series = series
        }

        func increment(by amount: Int64) {
            sampler.readings.withLock { $0.totals[series, default: 0] += amount }
        }

        func reset() {
            sampler.readings.withLock { $0.totals[series] = 0 }
        }

        func record(_ value: Int64) {
            record(Double(value))
        }

        func record(_ value: Double) {
            sampler.readings.withLock { $0.lastValues[series] = value }
        }

        func recordNanoseconds(_ duration: Int64) {
            sampler.readings.withLock { $0.largest[series] = max($0.largest[series] ?? duration, duration) }
        }
    }
}
