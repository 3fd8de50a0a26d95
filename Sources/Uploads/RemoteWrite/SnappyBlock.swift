import CSnappy

/// Snappy's block format (not its framed stream format): what remote write compresses a
/// request body with, through Debian's `libsnappy` (`snappy-c.h`).
enum SnappyBlock {
    /// `input` compressed as one snappy block; the same input always gives the same bytes.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var length = snappy_max_compressed_length(input.count)
        var output = [UInt8](repeating: 0, count: length)
        let status = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                snappy_compress(
                    source.baseAddress?.assumingMemoryBound(to: CChar.self), input.count,
                    destination.baseAddress?.assumingMemoryBound(to: CChar.self), &length)
            }
        }
        // snappy_compress fails only when the output is smaller than snappy_max_compressed_length.
        precondition(status == SNAPPY_OK, "snappy_compress failed with \(status)")
        output.removeSubrange(length...)
        return output
    }
}
