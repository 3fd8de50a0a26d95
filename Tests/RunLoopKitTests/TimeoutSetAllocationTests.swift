import TestSupport
import Testing

/// A TimeoutSet in steady state allocates nothing, and a Timer its own object: counted by
/// `timeout-allocation-probe`, in a process of its own whose malloc counts (CAllocationCounter).
@Suite("TimeoutSet allocations")
struct TimeoutSetAllocationTests {
    /// The probe's lines: operation → (timeouts handled, allocations made).
    private func probe() throws -> [String: (count: Int, allocations: Int)] {
        try #require(BuiltProduct.isBuilt("timeout-allocation-probe"), "build timeout-allocation-probe first")
        let outcome = try ChildProcess.run(BuiltProduct.path("timeout-allocation-probe"), [], timeout: .seconds(60))
        try #require(outcome.status == 0, "\(outcome)")
        var counts: [String: (Int, Int)] = [:]
        for line in outcome.output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let count = Int(fields[1]), let allocations = Int(fields[2]) else { continue }
            counts[String(fields[0])] = (count, allocations)
        }
        return counts
    }

    @Test("Schedule, reschedule later and earlier, cancel and fire make no allocation in steady state")
    func steadyStateAllocatesNothing() throws {
        let counts = try probe()
        for operation in ["schedule", "reschedule-later", "reschedule-earlier", "cancel", "fire"] {
            let measured = try #require(counts[operation], "no line for \(operation)")
            #expect(measured.count >= 5_000, "\(operation) handled \(measured.count) timeouts")
            #expect(measured.allocations == 0, "\(operation): \(measured.allocations) allocations")
        }
    }

    @Test("The counter counts: one object made per step is one allocation per step")
    func counterCounts() throws {
        let control = try #require(try probe()["control"])
        #expect(control.count >= 5_000 && control.allocations == control.count, "\(control)")
    }

    @Test(
        "A Timer costs one allocation to make and add, its object, when its block captures at most one object; two captures add their context; invalidating allocates nothing"
    )
    func timerAllocations() throws {
        let counts = try probe()
        // Debug builds check the queue's invariants at every 1,024th mutation, which allocates:
        // release builds make exactly the counts below, debug builds at most 5 % more.
        func expect(_ operation: String, perTimer: Int) throws {
            let measured = try #require(counts[operation], "no line for \(operation)")
            let expected = perTimer * measured.count
            #expect(
                measured.count >= 5_000 && measured.allocations >= expected
                    && measured.allocations <= expected + measured.count / 20,
                "\(operation): \(measured.allocations) allocations for \(measured.count) timers")
        }
        try expect("timer-schedule", perTimer: 1)
        // A block that captures one object has that object as its context: no allocation of its own.
        try expect("timer-schedule-capturing", perTimer: 1)
        try expect("timer-schedule-two-captures", perTimer: 2)
        try expect("timer-invalidate", perTimer: 0)
    }
}
