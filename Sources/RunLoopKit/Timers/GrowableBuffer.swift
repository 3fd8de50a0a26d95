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
