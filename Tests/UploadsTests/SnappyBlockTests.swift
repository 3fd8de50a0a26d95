import Testing

@testable import Uploads

/// The Swift snappy encoder: blocks a receiver decodes to the input, copies where bytes repeat,
/// and the element encodings of the format's description byte for byte.
@Suite struct SnappyBlockTests {
    @Test("An empty input is its length alone; a short one is one literal")
    func shortInputs() {
        #expect(SnappyBlock.compress([]) == [0x00])
        let literal: [UInt8] = [0x03, 2 << 2, 0x61, 0x62, 0x63]
        #expect(SnappyBlock.compress(Array("abc".utf8)) == literal)
    }

    @Test("A repeated run is a literal and one short copy: tag 01, length 4…11, an 11-bit offset")
    func shortCopy() {
        // "abcdabcdabcd": the literal "abcd", then 8 bytes copied from 4 back.
        let block = SnappyBlock.compress(Array("abcdabcdabcd".utf8))
        let expected: [UInt8] = [12, 3 << 2, 0x61, 0x62, 0x63, 0x64, 0b01 | (8 - 4) << 2, 4]
        #expect(block == expected)
    }

    @Test("A long run is 64-byte copies with a 16-bit offset, and no copy shorter than 4")
    func longCopies() throws {
        let input = [UInt8](repeating: 7, count: 200)
        let block = SnappyBlock.compress(input)
        #expect(block.count < 20)
        #expect(try #require(SnappyBlock.uncompress(block)) == input)
    }

    @Test("Literals of 61 bytes and more carry their length in 1, 2 or 3 bytes after the tag")
    func longLiterals() throws {
        var random = SeededRandom(seed: 11)
        for count in [59, 60, 61, 255, 256, 257, 65_535, 65_536, 70_000] {
            let input = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let block = SnappyBlock.compress(input)
            #expect(try #require(SnappyBlock.uncompress(block)) == input, "\(count) bytes")
        }
        let sixtyOne = (0..<61).map { UInt8($0) }
        let header: [UInt8] = [61, 60 << 2, 60]
        #expect(Array(SnappyBlock.compress(sixtyOne).prefix(3)) == header)
        let fiftyNine = (0..<59).map { UInt8($0) }
        #expect(Array(SnappyBlock.compress(fiftyNine).prefix(2)) == [59, 58 << 2])
    }

    @Test("Seeded inputs of every shape, across 64 KiB fragments, come back whole")
    func roundTrips() throws {
        var random = SeededRandom(seed: 2024)
        for round in 0..<200 {
            let count = Int.random(in: 0...150_000, using: &random)
            let alphabet = UInt8.random(in: 1...255, using: &random)
            var input: [UInt8] = []
            input.reserveCapacity(count)
            while input.count < count {
                if !input.isEmpty, Bool.random(using: &random) {
                    let start = Int.random(in: 0..<input.count, using: &random)
                    let length = min(Int.random(in: 1...300, using: &random), input.count - start, count - input.count)
                    input.append(contentsOf: input[start..<(start + length)])
                } else {
                    input.append(UInt8.random(in: 0...alphabet, using: &random))
                }
            }
            let block = SnappyBlock.compress(input)
            #expect(try #require(SnappyBlock.uncompress(block)) == input, "round \(round)")
            #expect(SnappyBlock.compress(input) == block, "round \(round) is not deterministic")
        }
    }

    @Test("Text that repeats compresses: a remote-write body's label strings shrink to under half")
    func compresses() {
        let labels = (0..<200).map { "timerdeck_sample_seq{instance=\"deck-\($0 % 3)\",job=\"timerdeck\"}" }
        let input = Array(labels.joined(separator: "\n").utf8)
        #expect(SnappyBlock.compress(input).count * 2 < input.count)
    }

    @Test("The test decoder refuses what no receiver accepts: a copy before the start, a cut block, a wrong length")
    func decoderRefusesBadBlocks() {
        #expect(SnappyBlock.uncompress([4, 0b01, 1]) == nil)
        #expect(SnappyBlock.uncompress([5, 4 << 2, 1, 2]) == nil)
        #expect(SnappyBlock.uncompress([9, 2 << 2, 1, 2, 3]) == nil)
        #expect(SnappyBlock.uncompress([0x80]) == nil)
        let farCopy: [UInt8] = [7, 2 << 2, 1, 2, 3, 0b11 | 3 << 2, 3, 0, 0, 0]
        let farCopied: [UInt8] = [1, 2, 3, 1, 2, 3, 1]
        #expect(SnappyBlock.uncompress(farCopy) == farCopied)
    }
}
