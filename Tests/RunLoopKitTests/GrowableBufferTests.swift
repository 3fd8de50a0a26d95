import Glibc
import Testing

@testable import RunLoopKit

@Suite("The timer heaps' buffers fault their pages in ahead of the elements in use")
struct GrowableBufferTests {
    @Test("prefault makes the next 256 KiB present, keeps the elements in use, and stops at the capacity")
    func prefaultMakesPagesPresent() throws {
        var capacity = 1 << 20
        let buffer = GrowableBuffer.grow(GrowableBuffer.empty(of: Int64.self), capacity: &capacity)
        defer { free(buffer) }
        #expect(capacity == 1 << 21)
        for index in 0..<1_000 { buffer[index] = Int64(index) * 7 }
        let end = GrowableBuffer.prefault(buffer, from: 1_000, capacity: capacity)
        #expect(end == 1_000 + GrowableBuffer.prefaultBytes / 8)
        #expect((0..<1_000).allSatisfy { buffer[$0] == Int64($0) * 7 })
        // Every whole page between the two elements is resident now.
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let lower = (Int(bitPattern: buffer + 1_000) + page - 1) & ~(page - 1)
        let upper = Int(bitPattern: buffer + end) & ~(page - 1)
        var residency = [UInt8](repeating: 0, count: (upper - lower) / page)
        try #require(mincore(UnsafeMutableRawPointer(bitPattern: lower), upper - lower, &residency) == 0)
        #expect(residency.allSatisfy { $0 & 1 == 1 })
        #expect(GrowableBuffer.prefault(buffer, from: capacity - 10, capacity: capacity) == capacity)
    }
}
