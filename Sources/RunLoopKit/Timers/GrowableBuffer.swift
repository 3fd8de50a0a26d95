import Glibc

/// Plain malloc'd buffers of trivial elements, grown by doubling with `realloc`: the storage of
/// the timer heaps (``TimerQueue``, ``TimeoutSet``).
///
/// `realloc` keeps the contents: glibc moves a large block by remapping its pages, where
/// allocating anew and copying took half the time of scheduling a million timeouts in
/// timerdeck-bench, in copies and page faults. Only for types with no references or other
/// ownership in them, which realloc moves as bytes (checked in debug builds). Free a buffer with
/// `free`.
enum GrowableBuffer {
    /// An empty buffer of `Element`s.
    static func empty<Element>(of type: Element.Type) -> UnsafeMutablePointer<Element> {
        reallocate(nil, capacity: 1)
    }

    /// `buffer` grown to the next capacity (twice `capacity`, at least 16), its contents kept;
    /// `capacity` becomes the new one.
    static func grow<Element>(_ buffer: UnsafeMutablePointer<Element>, capacity: inout Int)
        -> UnsafeMutablePointer<Element>
    {
        capacity = max(2 * capacity, 16)
        return reallocate(buffer, capacity: capacity)
    }

    /// How far ahead of the elements in use ``prefault(_:from:capacity:)`` faults pages in: 256 KiB.
    static let prefaultBytes = 256 * 1_024
    /// `madvise`'s `MADV_POPULATE_WRITE` (Linux 5.14).
    private static let populateWrite: Int32 = 23
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Faults in the whole pages of `buffer` from element `start` for ``prefaultBytes`` (no further
    /// than `capacity`), and returns the element they end at: the owner calls it again when its
    /// count reaches that element. A buffer grown by `realloc` gets pages the kernel has not yet
    /// given: without this, one push in about 170 into a growing heap paid a page fault (1–2 µs
    /// here), which made the 99.9th percentile of scheduling at 262,144 and 1M timers ten times
    /// its median (timerdeck-bench's tails rows); with it, one push in about 10,000 pays for 64
    /// pages in one `madvise`. Pages beyond the elements in use are only made present, their
    /// bytes are not written (and, where the kernel lacks that call, written with what they hold).
    static func prefault<Element>(_ buffer: UnsafeMutablePointer<Element>, from start: Int, capacity: Int) -> Int {
        let stride = MemoryLayout<Element>.stride
        let end = min(capacity, start + max(prefaultBytes / stride, 1))
        let base = UInt(bitPattern: UnsafeMutableRawPointer(buffer))
        let page = UInt(pageSize)
        let lower = (base + UInt(start * stride) + page - 1) & ~(page - 1)
        let upper = (base + UInt(end * stride)) & ~(page - 1)
        guard upper > lower, let first = UnsafeMutableRawPointer(bitPattern: lower) else { return end }
        if madvise(first, Int(upper - lower), populateWrite) != 0 {
            // Each page's first byte written with itself: present, and its contents unchanged.
            var offset = 0
            while offset < Int(upper - lower) {
                let byte = (first + offset).assumingMemoryBound(to: UInt8.self)
                byte.pointee = byte.pointee
                offset += pageSize
            }
        }
        return end
    }

    private static func reallocate<Element>(_ buffer: UnsafeMutablePointer<Element>?, capacity: Int)
        -> UnsafeMutablePointer<Element>
    {
        assert(_isPOD(Element.self), "GrowableBuffer: realloc moves only trivial elements")
        guard let grown = realloc(buffer, capacity * MemoryLayout<Element>.stride) else {
            fatalError("RunLoopKit: out of memory for \(capacity) timer entries")
        }
        return grown.bindMemory(to: Element.self, capacity: capacity)
    }
}
