import TestSupport
import Testing

/// A TimeoutSet in steady state allocates nothing: counted by `timeout-allocation-probe`, in a
/// process of its own whose malloc counts (CAllocationCounter), on a virtual clock.
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
}
