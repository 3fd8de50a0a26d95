/// The walk that ``TimerQueue`` and ``TimeoutSet`` share to find the entries of a 4-ary min-heap
/// due within a window: every index whose deadline is at or before a bound, depth first, in O(k) for
/// k such entries (a subtree's entries are no earlier than its root).
enum HeapWindow {
    /// Calls `body` with every index of a 4-ary heap of `count` entries whose deadline (read with
    /// `deadline`) is at or before `bound()`, re-read as `body` narrows it.
    ///
    /// The walk's stack is on the machine stack, not the heap: a wake-up computes its deadline
    /// without allocating, however many entries the window holds.
    @inline(__always)
    static func visit(
        count: Int, deadline: (Int) -> Int64, atOrBefore bound: () -> Int64, body: (Int) -> Void
    ) {
        guard count > 0 else { return }
        // A depth-first walk holds at most 3 entries per level plus one: 3 × 16 + 1 for the 16 levels
        // of 2³¹ entries; 96 leaves room. The buffer is unchecked in release builds.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 96) { stack in
            var depth = 1
            stack[0] = 0
            while depth > 0 {
                depth -= 1
                let index = stack[depth]
                guard deadline(index) <= bound() else { continue }
                body(index)
                let firstChild = 4 &* index &+ 1
                var child = min(firstChild &+ 3, count - 1)
                while child >= firstChild {
                    assert(depth < stack.count, "HeapWindow: walk deeper than its stack")
                    stack[depth] = child
                    depth += 1
                    child -= 1
                }
            }
        }
    }
}
