extension TraceFile {
    /// One field of a trace line: its name, the events that carry it, and what it means.
    struct Field: Sendable {
        /// The JSON key.
        var name: String
        /// The events whose lines carry it: `all`, or their names.
        var events: String
        /// What it holds.
        var meaning: String
    }

    /// Every field a trace line may carry, in the order the lines write them: `timerdeck --help`
    /// and the trace table of `Docs/Manual.md` are made from it.
    static let fields: [Field] = [
        Field(
            name: "event", events: "all",
            meaning: "`fire`, `nested-run` (a nested run of the loop starts), `nested-run-end`, `mode` (a timer "
                + "moved to `mode`), `sleep` (a simulated machine sleep, `z`), `wake-up` (the loop woke from a "
                + "sleep) or `lap` (a stopwatch's lap, `L`)"),
        Field(
            name: "t_ns", events: "all", meaning: "when, in nanoseconds since the dashboard started (its uptime clock)"),
        Field(name: "timer", events: "fire, mode, lap", meaning: "the row's name"),
        Field(name: "split_ns", events: "lap", meaning: "the stopwatch's time at the lap"),
        Field(name: "lap_ns", events: "lap", meaning: "the lap's time (since the lap before, or the start)"),
        Field(name: "sleep_ns", events: "sleep", meaning: "how long the simulated sleep lasted"),
        Field(
            name: "reason", events: "wake-up",
            meaning: "why the loop woke: `timer`, `input`, `block`, `wake-up` (another thread), `timeout`"),
        Field(
            name: "mechanism", events: "fire",
            meaning: "`runloop`, `dispatch`, `main-queue`, `displaylink`, `task`, `alarm` or `upload`"),
        Field(
            name: "mode", events: "all but sleep",
            meaning: "the run loop mode it happened in (`default`, `tracking`, `modal`); for `mode`, the timer's "
                + "new mode"),
        Field(name: "scheduled_ns", events: "fire", meaning: "when it was due (`t_ns` − `lateness_ns`)"),
        Field(name: "lateness_ns", events: "fire", meaning: "how late it fired"),
        Field(
            name: "ticks", events: "fire",
            meaning: "grid points it stands for: 1, or more when ticks were skipped or coalesced"),
        Field(
            name: "depth", events: "all",
            meaning: "run loop nesting depth: 1 in the main run, one more in each nested run"),
        Field(
            name: "note", events: "fire",
            meaning: "a hook's exit status and first line, when the line is a hook's end (its `mode` is that of "
                + "the fire that started the hook)"),
    ]

    /// The trace table of `Docs/Manual.md`.
    static var markdownTable: String {
        let rows = fields.map { "| `\($0.name)` | \($0.events) | \($0.meaning) |" }
        return (["| field | in | meaning |", "|---|---|---|"] + rows).joined(separator: "\n")
    }
}
