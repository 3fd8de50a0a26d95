@testable import Uploads

extension SnappyBlock {
    /// `input` uncompressed, or nil when it is not a valid snappy block: what a receiver does,
    /// from the format's description (every tag kind, the 32-bit-offset copy included), with
    /// every length and offset checked.
    static func uncompress(_ input: [UInt8]) -> [UInt8]? {
        var position = 0
        guard let expected = readVarint(input, &position), expected <= UInt64(Int32.max) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(Int(expected))
        while position < input.count {
            let tag = Int(input[position])
            position += 1
            let length: Int
            let offset: Int
            switch tag & 0b11 {
            case 0b00:
                var lengthLessOne = tag >> 2
                if lengthLessOne >= 60 {
                    guard let value = readLittleEndian(input, &position, byteCount: lengthLessOne - 59) else {
                        return nil
                    }
                    lengthLessOne = value
                }
                guard position + lengthLessOne + 1 <= input.count else { return nil }
                output.append(contentsOf: input[position...(position + lengthLessOne)])
                position += lengthLessOne + 1
                continue
            case 0b01:
                guard position < input.count else { return nil }
                length = 4 + (tag >> 2) & 0b111
                offset = (tag >> 5) << 8 | Int(input[position])
                position += 1
            case 0b10:
                guard let value = readLittleEndian(input, &position, byteCount: 2) else { return nil }
                length = (tag >> 2) + 1
                offset = value
            default:
                guard let value = readLittleEndian(input, &position, byteCount: 4) else { return nil }
                length = (tag >> 2) + 1
                offset = value
            }
            guard offset > 0, offset <= output.count else { return nil }
            for _ in 0..<length { output.append(output[output.count - offset]) }
        }
        return output.count == Int(expected) ? output : nil
    }

    private static func readVarint(_ input: [UInt8], _ position: inout Int) -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 35, by: 7) {
            guard position < input.count else { return nil }
            let byte = input[position]
            position += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte < 0x80 { return value }
        }
        return nil
    }

    private static func readLittleEndian(_ input: [UInt8], _ position: inout Int, byteCount: Int) -> Int? {
        guard position + byteCount <= input.count else { return nil }
        var value = 0
        for index in 0..<byteCount { value |= Int(input[position + index]) << (8 * index) }
        position += byteCount
        return value
    }
}
