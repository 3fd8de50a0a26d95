/// Why a ``Sampler`` could not be set up or could not take a sample, naming the source.
public enum SamplerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file could not be read: missing, not permitted.
    case unreadable(path: String, reason: String)
    /// A file was read but its content is not what the sampler expects.
    case malformed(source: String, reason: String)
    /// A GPS track has no points to replay.
    case emptyTrack(source: String)

    /// A sentence for the user: which file and what is wrong with it.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "Cannot read \(path): \(reason)."
        case .malformed(let source, let reason):
            "\(source) is not in the expected format: \(reason)."
        case .emptyTrack(let source):
            "\(source) has no track points (<trkpt> or <rtept> with lat and lon)."
        }
    }
}
