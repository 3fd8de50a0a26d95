extension UploadsConfig {
    /// `uploads.labels` and `uploads.headers`: `"region=eu,rack=r3"`, or `""` for none; `nil` when
    /// a pair has no `=`, a name or value is empty, or a name repeats. Label names themselves are
    /// checked where the sink is made, with the rest of remote write's rules.
    static func parseLabels(_ text: String) -> [String: String]? {
        var labels: [String: String] = [:]
        for pair in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let name = trimmed(parts[0])
            let value = trimmed(parts[1])
            guard !name.isEmpty, !value.isEmpty, labels[name] == nil else { return nil }
            labels[name] = value
        }
        return labels
    }

    private static func trimmed(_ text: Substring) -> String {
        String(String(text.drop(while: \.isWhitespace).reversed()).drop(while: \.isWhitespace).reversed())
    }

    /// The labels (or headers) as `uploads.labels` writes them, sorted by name.
    static func writeLabels(_ labels: [String: String]) -> String {
        labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }
}
