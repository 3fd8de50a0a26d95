import CSnappy

@testable import Uploads

extension SnappyBlock {
    /// `input` uncompressed, or nil when it is not a valid snappy block: what a receiver does.
    static func uncompress(_ input: [UInt8]) -> [UInt8]? {
        var length = 0
        let measured = input.withUnsafeBytes {
            snappy_uncompressed_length($0.baseAddress?.assumingMemoryBound(to: CChar.self), input.count, &length)
        }
        guard measured == SNAPPY_OK else { return nil }
        return transform(input, capacity: length, snappy_uncompress)
    }
}
