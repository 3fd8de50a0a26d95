import RunLoopKit

/// What ``DashboardState/apply(_:)`` asks the driver to do to the world.
enum Effect: Equatable, Sendable {
    /// Schedule a new timer for the row (a run loop timer fires one interval on, a dispatch timer at once).
    case start(RowID)
    /// Unschedule the row's timer.
    case stop(RowID)
    /// Hold the row's timer where it is / let it go on.
    case suspend(RowID)
    case resume(RowID)
    /// Move the row's timer to `mode`, keeping its fire date.
    case move(RowID, to: RunLoop.Mode)
    /// Fire the row's timer now, outside its schedule (T2).
    case fire(RowID)
    /// Invalidate the row's timer.
    case invalidate(RowID)
    /// Set the display link's frame interval.
    case setFrameInterval(RowID, Int)
    /// Start the upload pipeline: both its jobs and the batches a previous run left behind (S2).
    case startUploads
    /// Make the current callback take `duration` longer (the ticker's slow load, D3).
    case work(Duration)
    /// Run the loop re-entrantly in the tracking mode until ``endRun(_:)`` names it (C-M11, M2);
    /// with `quiet`, a timer in the tracking mode sends ``Event/gestureQuiet`` after that long
    /// without input. It blocks: it is the last effect of its list.
    case enterTracking(quiet: Duration?)
    /// Restart the quiet period of the scroll gesture.
    case extendGesture(quiet: Duration)
    /// Keep tracking until told otherwise: drop the quiet-period timer.
    case holdGesture
    /// End the nested run in this mode, which is the innermost one once the effects before it
    /// have ended those inside it; its return comes back as ``Event/runEnded(_:)``.
    case endRun(RunLoop.Mode)
    /// Open a lifetime-lab screen of the strategy / close its newest / invalidate the timers its
    /// closed screens left behind (L1–L3).
    case openScreen(LabStrategy)
    case closeScreen(LabStrategy)
    case stopLeftBehind(LabStrategy)
    /// Run the loop re-entrantly in ``RunLoop/Mode/modal`` until ``endRun(_:)`` names it (C-M11).
    /// It blocks: it is the last effect of its list.
    case enterModal
    /// Add ``RunLoop/Mode/modal`` to the common modes, for good (C-M5).
    case makeModalCommon
    /// Change the dashboard's clock (the time-control keys) to what ``DashboardState/time`` says.
    case time(TimeChange)
    /// Write the wake-up the loop just had, with its reason (which only the loop knows), to the
    /// trace, if there is one.
    case traceWakeUp
    /// Send ``Event/tick`` every `interval` from now, in the common modes, with `tolerance`.
    case refreshTimes(every: Duration, tolerance: Duration)
    /// Stop sending ``Event/tick``.
    case stopRefreshingTimes
    /// Redraw these parts.
    case render(ViewParts)
    /// Redraw the lines that show this row (its SMS button, its inspector line).
    case renderRow(RowID)
    /// End the session's own run, once the nested runs the effects before it ended have returned.
    case quit
    /// Makes the real timer of a row added at run time (it is the last row).
    case addTimer(RowID)
    /// Reads what the state file would keep of a deleted row (``Event/deleted(_:kept:wallNow:)``),
    /// then invalidates and forgets its real timer.
    case deleteTimer(RowID)
    /// Writes `text` (what `export` names: the defined timers as config, a stopwatch's laps as CSV)
    /// to `path` (`~/` is the home directory); a ``Event/notice(_:)`` says how it went. An existing
    /// file is replaced only with `overwrite`; otherwise ``Event/fileExists(_:path:isRunningConfig:)``
    /// asks first.
    case write(Export, path: String, text: String, overwrite: Bool)
    /// Read the wall clock to put a deleted row back as `entry` kept it; ``Event/putBack(_:_:wallNow:)``
    /// brings it.
    case putBack(RowID, SavedTimers.Entry)
    /// Read the clock for `action` on the row's stopwatch; ``Event/stopwatch(_:_:time:)`` brings it.
    case stopwatch(RowID, Stopwatch.Action)
    /// Tells the state of every timer on one line (``PlainNarration/report(_:)``): written out in
    /// the plain mode, shown in the status bar on the screen.
    case report
    /// Rings the terminal bell (a timer's action).
    case ring
    /// Ends a row's flash after `duration`, with ``Event/flashEnded(_:)``.
    case endFlash(RowID, after: Duration)
    /// Runs a timer's hook off the loop's thread; its end comes back as ``Event/hookFinished(_:_:)``.
    case runHook(RowID, Hook, environment: [String: String])
    /// Shows a desktop notification for the row (``DesktopNotification``).
    case notify(RowID, DesktopNotification)
    /// Plays the end sound for the row (``EndSound``).
    case playSound(RowID)

    /// Whether performing it runs the loop nested until the run ends: it must come last.
    var blocks: Bool {
        switch self {
        case .enterTracking, .enterModal: true
        default: false
        }
    }
}
