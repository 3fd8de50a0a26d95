import Foundation
import TestSupport
import Testing

/// A short variant of the relay soak (`timerdeck-soak relay`, see "Through a relay" in the manual):
/// headless timerdeck processes, each with its own outbox and instance label, reading each batch back
/// from the store, writing straight into Prometheus, through a real vmagent and through Prometheus's
/// agent while the relay and the store are each killed once, every sample then looked for by PromQL.
/// The documented command runs 50 instances for 10 minutes and kills each 5 times.
@Suite(
    .serialized, .tags(.process, .slow),
    .enabled(
        if: BuiltProduct.isBuilt("timerdeck") && BuiltProduct.isBuilt("timerdeck-soak"),
        "build timerdeck and timerdeck-soak first"))
struct RelayFleetTests {
    /// Runs the soak for 4 instances and 2 simulated minutes at 12× with the relay and the store
    /// killed once, on `paths`, with `timerdeck` as the instances' program.
    private func soak(_ paths: [String], timerdeck: String = BuiltProduct.path("timerdeck")) throws
        -> ChildProcess.Outcome
    {
        try TestRequirements.commands("prometheus", "vmagent", "setpriv")
        let ports = [try CollectorProcess.unusedPort(), try CollectorProcess.unusedPort()]
        return try ChildProcess.run(
            BuiltProduct.path("timerdeck-soak"),
            [
                "relay", "--instances", "4", "--minutes", "2", "--relay-kills", "1", "--store-kills", "1", "--speed",
                "12",
                "--timerdeck", timerdeck, "--ports", "\(ports[0])", "--ports", "\(ports[1])",
            ]
                + paths.flatMap { ["--relays", $0] },
            timeout: .seconds(600))
    }

    @Test("Straight in, through vmagent and through the agent, each killed once: every sample stored once")
    func everySampleOnce() throws {
        let outcome = try soak(["direct", "vmagent", "agent"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("| samples taken | 96 | 96 | 96 |"), "\(outcome)")
        #expect(
            outcome.output.contains(
                "| a batch counts as delivered on | read back from the store | read back from the store | read back from the store |"
            ))
        #expect(outcome.output.contains("| instances whose every sample is stored once | 4 of 4 | 4 of 4 | 4 of 4 |"))
        #expect(outcome.output.contains("| samples lost | 0 | 0 | 0 |"))
        #expect(outcome.output.contains("| points stored of expected | 384 of 384 | 384 of 384 | 384 of 384 |"))
        #expect(
            outcome.output.contains("| refusals in the store's log (out of order, duplicate, too old) | 0 | 0 | 0 |"))
        #expect(outcome.output.hasSuffix("passed\n"))
    }

    @Test("Positive control: an instance whose uploads go nowhere is counted lost, by minute, and the soak fails")
    func lostSamplesAreCounted() throws {
        // deck-1's uploads, and its fallback to the store, go to the discard port, where nothing listens.
        let scratch = try ScratchDirectory(prefix: "relay-control")
        let wrapper = try scratch.write(
            """
            #!/bin/sh
            case "$*" in
            */deck-1/*)
                for argument do
                    shift
                    case $argument in prometheus+http://*) argument=prometheus+http://127.0.0.1:9/api/v1/write ;; esac
                    set -- "$@" "$argument"
                done
                ;;
            esac
            exec \(BuiltProduct.path("timerdeck")) "$@"

            """, to: "timerdeck")
        chmod(wrapper, 0o755)
        let outcome = try soak(["direct"], timerdeck: wrapper)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.output.contains("| instances whose every sample is stored once | 3 of 4 |"), "\(outcome)")
        #expect(outcome.output.contains("| samples lost | 24 |"))
        #expect(outcome.output.contains("direct lost samples taken in minute 1: 12, 2: 12"))
        #expect(outcome.output.hasSuffix("FAILED: direct\n"))
    }
}
