import Foundation
import Glibc

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when the value is released.
final class ScratchDirectory {
    let url: URL

    init() throws {
        var template = Array(URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("uploads-tests.XXXXXX").path.utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let created else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: "mkdtemp: \(String(cString: strerror(errno)))"])
        }
        url = URL(fileURLWithPath: String(cString: created), isDirectory: true)
    }

    /// A path inside the directory (nothing is created).
    func path(_ relative: String) -> URL {
        url.appendingPathComponent(relative)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
