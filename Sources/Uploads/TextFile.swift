import Glibc

/// Reads small text files whole, including `/proc` files whose size reads as zero.
enum TextFile {
    /// The file's bytes decoded as UTF-8 (invalid sequences replaced).
    static func read(atPath path: String) throws(FileOperationError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .lastError(path: path, operation: "open") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .lastError(path: path, operation: "read")
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
