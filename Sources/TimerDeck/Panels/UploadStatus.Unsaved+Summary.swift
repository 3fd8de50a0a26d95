import Uploads

extension UploadStatus.Unsaved {
    /// "53 samples NOT saved: …" with the reason.
    var summary: String { "\(count) sample\(count == 1 ? "" : "s") NOT saved: \(error)" }
}
