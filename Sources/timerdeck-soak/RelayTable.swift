/// The relay soak's figures side by side, one column a path, as a Markdown table, and where each
/// path lost samples.
struct RelayTable {
    let lines: [String]

    init(_ runs: [RelayRun.Figures]) {
        func row(_ name: String, _ value: (RelayRun.Figures) -> String) -> String {
            "| \(name) | " + runs.map(value).joined(separator: " | ") + " |"
        }
        func perSample(_ bytes: Double?, _ run: RelayRun.Figures) -> String {
            guard let bytes, run.samples > 0 else { return "—" }
            return String(format: "%.1f", bytes / Double(run.samples))
        }
        func lag(_ lags: [Duration], _ share: Double) -> String {
            guard !lags.isEmpty else { return "—" }
            let sorted = lags.sorted()
            let lag = sorted[min(sorted.count - 1, Int(Double(sorted.count) * share))]
            return String(format: "%.0f", milliseconds(lag))
        }
        func minutes(_ list: [Int]) -> String {
            list.isEmpty ? "none" : list.map(String.init).joined(separator: ", ")
        }
        lines =
            [
                "| | " + runs.map(\.kind.rawValue).joined(separator: " | ") + " |",
                "|---|" + String(repeating: "---:|", count: runs.count),
                row("instances") { "\($0.instances)" },
                row("a batch counts as delivered on") { $0.acknowledgement },
                row("minutes the relay was ended in") { minutes($0.relayKilled) },
                row("how the relay was ended") { $0.relayEnd },
                row("minutes the store was killed (SIGKILL) in") { minutes($0.storeKilled) },
                row("samples taken") { "\($0.samples)" },
                row("instances whose every sample is stored once") { "\($0.exactlyOnce) of \($0.instances)" },
                row("samples lost") { "\($0.lost)" },
                row("points stored of expected") { String(format: "%.0f of %d", $0.pointsStored, $0.pointsExpected) },
                row("refusals in the store's log (out of order, duplicate, too old)") { "\($0.storeRefusals)" },
                row("error lines in the relay's log") { $0.relayErrors.map(String.init) ?? "—" },
                row("timerdeck runs that did not exit 0") { "\($0.failedRuns)" },
                row("lag, acknowledged → readable, p50 ms") { lag($0.lags, 0.5) },
                row("lag p99 ms") { lag($0.lags, 0.99) },
                row("bytes per sample in (timerdeck → relay, with HTTP headers)") { perSample($0.bytesIn, $0) },
                row("bytes per sample out (relay → store, compressed bodies)") { perSample($0.bytesOut, $0) },
                row("relay's disk use at its peak, KiB") {
                    $0.diskPeak.map { String(format: "%.0f", Double($0) / 1_024) } ?? "—"
                },
                row("real time, s") { String(format: "%.0f", milliseconds($0.elapsed) / 1_000) },
                "",
            ]
            + runs.filter { !$0.lostByMinute.isEmpty }.map { run in
                "\(run.kind.rawValue) lost samples taken in minute "
                    + run.lostByMinute.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(
                        separator: ", ")
            }
            + [
                runs.allSatisfy(\.passed)
                    ? "passed" : "FAILED: " + runs.filter { !$0.passed }.map(\.kind.rawValue).joined(separator: ", ")
            ]
    }
}
