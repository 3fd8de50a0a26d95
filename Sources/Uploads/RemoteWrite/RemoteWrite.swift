import Foundation

/// How a batch becomes a Prometheus remote-write 1.0 request: the labels every series carries,
/// and the encoding (protobuf `WriteRequest`, snappy block compression).
///
/// Each field of a sample is one series (``SampleFields/series``, with its own labels for a loop's
/// readings), plus `timerdeck_sample_seq`
/// whose value is the sample's `seq`, so a reader can check that no sample is missing. Every
/// series carries `__name__`, `instance`, `job`, `kind` and the extra labels; its samples are
/// stamped with the time they were taken. The request for a batch is always the same bytes, so a
/// batch sent again stores each point once.
///
/// ```swift
/// let format = try RemoteWrite(instance: "deck-17", labels: ["region": "eu"])
/// let sink = try HTTPSink(endpoint: "http://db:9090/api/v1/write", timeout: .seconds(10), format: .remoteWrite(format))
/// ```
public struct RemoteWrite: Sendable, Hashable {
    /// The `instance` label: which machine or process the samples come from.
    public let instance: String
    /// The `job` label.
    public let job: String
    /// Further labels on every series, by name.
    public let labels: [String: String]

    /// The headers of every request, besides `Content-Length`.
    static let headers = [
        ("Content-Encoding", "snappy"),
        ("Content-Type", "application/x-protobuf"),
        ("X-Prometheus-Remote-Write-Version", "0.1.0"),
    ]

    /// The labels this format sets itself; extra labels may not use them.
    static let ownLabels: Set<String> = ["__name__", "instance", "job", "kind"]

    /// Labels series with `instance` and `job` and the extra `labels`.
    ///
    /// - Throws: ``UploadError/invalidConfiguration(_:)`` when `instance` or `job` is empty, or an
    ///   extra label's name is not a Prometheus label name (`[a-zA-Z_][a-zA-Z0-9_]*`, not starting
    ///   with `__`), is one of `instance`, `job`, `kind`, or has an empty value.
    public init(instance: String, job: String = "timerdeck", labels: [String: String] = [:]) throws(UploadError) {
        guard !instance.isEmpty else { throw .invalidConfiguration("the instance label is empty") }
        guard !job.isEmpty else { throw .invalidConfiguration("the job label is empty") }
        for (name, value) in labels.sorted(by: { $0.key < $1.key }) {
            guard Self.isLabelName(name), !name.hasPrefix("__") else {
                throw .invalidConfiguration(
                    "\"\(name)\" is not a label name (letters, digits and _, not starting with a digit or __)")
            }
            guard !Self.ownLabels.contains(name) else {
                throw .invalidConfiguration("the label \"\(name)\" is set by timerdeck itself")
            }
            guard !value.isEmpty else { throw .invalidConfiguration("the label \"\(name)\" has an empty value") }
        }
        self.instance = instance
        self.job = job
        self.labels = labels
    }

    /// The sink's verdict on `batch` from the receiver's answer: a batch sent before that
    /// Prometheus now refuses as out of order (or as a duplicate) is already stored, and counts as
    /// acknowledged.
    ///
    /// Prometheus accepts an exact duplicate only of a series' newest sample: when an earlier
    /// attempt was stored but its answer was lost (a dropped connection, a timeout), the identical
    /// resend is refused with 400 `out of order sample`. A request is stored whole or not at all,
    /// so the refusal of a resend means the earlier attempt went in.
    func verdict(_ result: Result<Ack, UploadError>, for batch: Batch, destination: String) -> Result<
        Ack, UploadError
    > {
        guard batch.failedAttempts > 0, case .failure(.rejected(400, let message)) = result,
            message.contains("out of order sample") || message.contains("duplicate sample")
        else { return result }
        return .success(Ack(batchID: batch.id, destination: destination, statusCode: 400))
    }

    /// The labels every series of this format carries: the extra labels, `instance` and `job`.
    var commonLabels: [String: String] {
        labels.merging(["instance": instance, "job": job]) { _, own in own }
    }

    /// The compressed request body for `batch`.
    func body(for batch: Batch) throws(UploadError) -> Data {
        let message: [UInt8]
        do {
            message = try request(for: batch).serializedBytes()
        } catch {
            throw .encodingFailed("the remote-write request: \(error)")
        }
        return Data(SnappyBlock.compress(message))
    }

    /// The `WriteRequest` for `batch`: series in name order, each with its labels sorted by name
    /// and its samples in time order.
    func request(for batch: Batch) -> Prometheus_WriteRequest {
        var series: [[String: String]: [Prometheus_Sample]] = [:]
        for stored in batch.samples {
            let sample = stored.sample
            var common = commonLabels
            common["kind"] = sample.kind.rawValue
            let seq = (name: "timerdeck_sample_seq", labels: [String: String](), value: Double(stored.seq))
            for (name, own, value) in [seq] + sample.fields.series {
                var point = Prometheus_Sample()
                point.value = value
                point.timestamp = sample.takenAtMilliseconds
                // A reading's own labels (a loop's `mode`, `timer`) never replace the common ones.
                var labels = common
                labels["__name__"] = name
                labels.merge(own) { common, _ in common }
                series[labels, default: []].append(point)
            }
        }
        var request = Prometheus_WriteRequest()
        request.timeseries = series.map { labels, samples in
            var timeSeries = Prometheus_TimeSeries()
            timeSeries.labels = labels.sorted { $0.key < $1.key }.map { name, value in
                var label = Prometheus_Label()
                label.name = name
                label.value = value
                return label
            }
            // Stable: samples taken at the same millisecond keep their seq order.
            timeSeries.samples = samples.enumerated().sorted {
                ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
            }.map(\.element)
            return timeSeries
        }.sorted { Self.key($0) < Self.key($1) }
        return request
    }

    /// A series' labels as one text, for ordering.
    private static func key(_ series: Prometheus_TimeSeries) -> String {
        series.labels.map { "\($0.name)=\($0.value)" }.joined(separator: "\u{0}")
    }

    private static func isLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                || ("0"..."9").contains($0)
        }
    }
}
