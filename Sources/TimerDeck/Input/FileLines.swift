import Glibc

/// The lines of an open file, read one at a time as they are consumed (``InputFile/lines(_:role:)``),
/// without their newline; the file is closed when the value goes away. A read error ends the lines
/// as the end of the file does.
package final class FileLines: Sequence, IteratorProtocol {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0

    init(file: UnsafeMutablePointer<FILE>) {
        self.file = file
    }

    deinit {
        free(buffer)
        fclose(file)
    }

    package func next() -> String? {
        let count = getline(&buffer, &capacity, file)
        guard count >= 0, let buffer else { return nil }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
        return String(
            decoding: bytes.last == UInt8(ascii: "\n") ? UnsafeRawBufferPointer(rebasing: bytes.dropLast()) : bytes,
            as: UTF8.self)
    }
}
