import AppPlatform
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A sampler that replays a GPS track: each sample is the next point, looping at the end.
///
/// No interpolation: one point per sample, in file order, back to the first after the last.
///
/// ```swift
/// var route = try RouteReplay(contentsOf: URL(fileURLWithPath: "Resources/route.gpx"))
/// let sample = route.sample(at: Date())     // .position(latitude:longitude:elevation:)
/// ```
public struct RouteReplay: Sampler, Sendable {
    /// The track being replayed; never empty.
    public let points: [TrackPoint]
    /// The index of the point the next sample returns.
    public private(set) var nextIndex = 0
    /// How many times the whole track has been replayed.
    public private(set) var laps = 0

    /// Always ``SampleKind/position``.
    public var kind: SampleKind { .position }

    /// Replays `points` from the first.
    /// - Throws: ``SamplerError/emptyTrack(source:)`` when `points` is empty.
    public init(points: [TrackPoint], source: String = "the track") throws(SamplerError) {
        guard !points.isEmpty else { throw .emptyTrack(source: source) }
        self.points = points
    }

    /// Replays the track in the GPX file at `url`.
    /// - Throws: ``SamplerError`` naming the file when it cannot be read, is not GPX, or has no points.
    public init(contentsOf url: URL) throws(SamplerError) {
        let text: String
        do {
            text = String(decoding: try FileIO.read(atPath: url.path), as: UTF8.self)
        } catch {
            throw .unreadable(path: error.path, reason: error.reason)
        }
        try self.init(points: Self.parseGPX(text, source: url.path), source: url.path)
    }

    /// The track points of a GPX document: every `<trkpt>` (or `<rtept>`) in order, with its
    /// `<ele>` when present.
    /// - Parameter source: names the document in errors, usually its path.
    /// - Throws: ``SamplerError/malformed(source:reason:)`` for invalid XML or a point without
    ///   a valid latitude and longitude. An empty result is not an error here.
    public static func parseGPX(_ text: String, source: String = "GPX") throws(SamplerError) -> [TrackPoint] {
        let parser = XMLParser(data: Data(text.utf8))
        let reader = GPXReader()
        parser.delegate = reader
        let parsed = parser.parse()
        if let problem = reader.problem {
            throw .malformed(source: source, reason: problem)
        }
        guard parsed else {
            throw .malformed(source: source, reason: parser.parserError?.localizedDescription ?? "invalid XML")
        }
        return reader.points
    }

    /// The next point of the track as a position sample taken at `time`.
    public mutating func sample(at time: Date) -> Sample {
        let point = points[nextIndex]
        nextIndex += 1
        if nextIndex == points.count {
            nextIndex = 0
            laps += 1
        }
        return Sample(
            takenAt: time,
            fields: .position(latitude: point.latitude, longitude: point.longitude, elevation: point.elevation))
    }
}
