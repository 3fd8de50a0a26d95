import Uploads

extension UploadStatus.Unsaved {
    /// "53 samples NOT saved: …" with the reason; once saving works again, "53 samples NOT saved
    /// (saving again: 12 saved since): …", before the reason, so a cut line still says it.
    var summary: String {
        let again = savedSince > 0 ? " (saving again: \(savedSince) saved since)" : ""
        return "\(count) sample\(count == 1 ? "" : "s") NOT saved\(again): \(error)"
    }
}
