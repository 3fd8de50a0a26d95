/// Snappy's block format (not its framed stream format): what remote write compresses a
/// request body with. Any valid block is accepted by a receiver; this encoder is the greedy one
/// of snappy's reference (a hash of each 4-byte sequence finds an earlier occurrence in the same
/// 64 KiB fragment), in Swift, so that building the program needs no system library.
///
/// The format: the uncompressed length as a varint, then elements whose tag byte's two low bits
/// say what follows — `00` a literal, `01` a copy with an 11-bit offset and a length of 4…11,
/// `10` a copy with a 16-bit offset and a length of 1…64 (`11`, a 32-bit offset, is never needed
/// within a fragment).
enum SnappyBlock {
    /// The fragment a copy may reach back into: offsets stay below 65,536.
    static let fragmentSize = 1 << 16
    /// A copy is worth its tag only from four equal bytes on.
    static let minimumMatch = 4
    private static let hashBits = 14

    /// `input` compressed as one snappy block; the same input always gives the same bytes.
    ///
    /// ```swift
    /// let body = SnappyBlock.compress(Array("abcabcabcabc".utf8))
    /// ```
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(32 + input.count + input.count / 6)
        appendVarint(UInt64(input.count), to: &output)
        var table = [Int](repeating: -1, count: 1 << hashBits)
        var fragmentStart = 0
        while fragmentStart < input.count {
            let fragmentEnd = min(input.count, fragmentStart + fragmentSize)
            compressFragment(input, fragmentStart..<fragmentEnd, table: &table, into: &output)
            fragmentStart = fragmentEnd
        }
        return output
    }

    /// Appends the elements of `range`: literals between the copies the hash table finds. A
    /// position in `table` from an earlier fragment is never used (copies stay inside one).
    private static func compressFragment(
        _ input: [UInt8], _ range: Range<Int>, table: inout [Int], into output: inout [UInt8]
    ) {
        var literalStart = range.lowerBound
        var position = range.lowerBound
        while position + minimumMatch <= range.upperBound {
            let word = load32(input, position)
            let slot = Int((word &* 0x1E35_A7BD) >> UInt32(32 - hashBits))
            let candidate = table[slot]
            table[slot] = position
            guard candidate >= range.lowerBound, load32(input, candidate) == word else {
                position += 1
                continue
            }
            var length = minimumMatch
            while position + length < range.upperBound, input[candidate + length] == input[position + length] {
                length += 1
            }
            appendLiteral(input[literalStart..<position], to: &output)
            appendCopy(offset: position - candidate, length: length, to: &output)
            position += length
            literalStart = position
        }
        appendLiteral(input[literalStart..<range.upperBound], to: &output)
    }

    private static func load32(_ input: [UInt8], _ at: Int) -> UInt32 {
        UInt32(input[at]) | UInt32(input[at + 1]) << 8 | UInt32(input[at + 2]) << 16 | UInt32(input[at + 3]) << 24
    }

    static func appendVarint(_ value: UInt64, to output: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        output.append(UInt8(rest))
    }

    /// A literal element: its length less one in the tag when below 60, else in the 1…4 bytes
    /// after a tag of 60…63 (little-endian).
    private static func appendLiteral(_ bytes: ArraySlice<UInt8>, to output: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        let lengthLessOne = bytes.count - 1
        if lengthLessOne < 60 {
            output.append(UInt8(lengthLessOne << 2))
        } else {
            let byteCount = (Int.bitWidth - lengthLessOne.leadingZeroBitCount + 7) / 8
            output.append(UInt8((59 + byteCount) << 2))
            for index in 0..<byteCount {
                output.append(UInt8(truncatingIfNeeded: lengthLessOne >> (8 * index)))
            }
        }
        output.append(contentsOf: bytes)
    }

    /// Copy elements for `length` bytes from `offset` back: 64-byte copies while more than 67
    /// remain (so the last is never shorter than 4), then one short or long copy.
    private static func appendCopy(offset: Int, length: Int, to output: inout [UInt8]) {
        var remaining = length
        while remaining >= 68 {
            appendLongCopy(offset: offset, length: 64, to: &output)
            remaining -= 64
        }
        if remaining > 64 {
            appendLongCopy(offset: offset, length: 60, to: &output)
            remaining -= 60
        }
        if remaining >= 12 || offset >= 2048 {
            appendLongCopy(offset: offset, length: remaining, to: &output)
        } else {
            output.append(UInt8(0b01 | (remaining - 4) << 2 | (offset >> 8) << 5))
            output.append(UInt8(truncatingIfNeeded: offset))
        }
    }

    private static func appendLongCopy(offset: Int, length: Int, to output: inout [UInt8]) {
        output.append(UInt8(0b10 | (length - 1) << 2))
        output.append(UInt8(truncatingIfNeeded: offset))
        output.append(UInt8(truncatingIfNeeded: offset >> 8))
    }
}
