import CSnappy

/// Snappy's block format (not its framed stream format): what remote write compresses a
/// request body with, through Debian's `libsnappy` (`snappy-c.h`).
enum SnappyBlock {
    /// `input` compressed as one snappy block; the same input always gives the same bytes.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        let output = transform(input, capacity: snappy_max_compressed_length(input.count), snappy_compress)
        // snappy_compress fails only when the output is smaller than snappy_max_compressed_length.
        guard let output else { preconditionFailure("snappy_compress failed") }
        return output
    }

    /// Runs `call` (`snappy_compress` or `snappy_uncompress`) from `input` into a buffer of
    /// `capacity` bytes; the bytes it wrote, or nil when it did not answer `SNAPPY_OK`.
    static func transform(
        _ input: [UInt8], capacity: Int,
        _ call: (UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?) -> snappy_status
    ) -> [UInt8]? {
        var length = capacity
        var output = [UInt8](repeating: 0, count: capacity)
        let status = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                call(
                    source.baseAddress?.assumingMemoryBound(to: CChar.self), input.count,
                    destination.baseAddress?.assumingMemoryBound(to: CChar.self), &length)
            }
        }
        guard status == SNAPPY_OK else { return nil }
        output.removeSubrange(length...)
        return output
    }
}
