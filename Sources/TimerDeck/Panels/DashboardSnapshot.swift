import RunLoopKit

/// Everything the panels draw, as an immutable value: the dashboard's state, the run loop's mode,
/// depth and common modes, and what the live timers read now. A panel test needs no run loop.
struct DashboardSnapshot: Sendable {
    /// The dashboard's state.
    let state: DashboardState
    /// The run loop as it is now.
    let loop: LoopStatus
    /// The live timers' readings.
    let readings: [RowID: RowReading]
    /// The lifetime lab's counts, by ``LabStrategy/rawValue`` (empty unless the lab is shown).
    var lab: [LabReading] = []
    /// The run loop's phases and per-second counts (only while the phases view is shown).
    var phases: PhaseReading?

    /// What `row` is doing, seen from the mode the loop runs now (M2).
    func displayState(of row: RowState) -> DisplayState {
        row.displayState(inMode: loop.mode, commonModes: loop.commonModes)
    }

    /// The live reading of `row`'s timer.
    func reading(of row: RowState) -> RowReading {
        readings[row.id] ?? RowReading(nextFire: nil, framesPerSecond: nil)
    }
}

/// The run loop as the title bar shows it.
struct LoopStatus: Equatable, Sendable {
    /// The mode it runs, `nil` outside a run.
    var mode: RunLoop.Mode?
    /// How many runs are nested (1 in the outer run, 2 in the tracking run).
    var depth: Int
    /// The modes `common` stands for.
    var commonModes: [RunLoop.Mode]
    /// The loop's uptime clock.
    var now: Instant
    /// When the dashboard started: the fire log shows times since then.
    var startTime: Instant
    /// The wall clock at ``now``, for the local time a countdown ends at; `nil` when not read.
    var wallNow: Instant?
}

/// What a row's live timer reads now.
struct RowReading: Equatable, Sendable {
    /// Its next fire, when scheduled and not held.
    var nextFire: Instant?
    /// Callbacks per second, measured (display links).
    var framesPerSecond: Double?
}
