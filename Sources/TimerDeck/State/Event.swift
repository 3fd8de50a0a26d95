import RunLoopKit
import TerminalUI
import Uploads

/// Everything that can change the dashboard's state: the input of ``DashboardState/apply(_:)``.
enum Event: Sendable {
    /// The dashboard starts: what runs from launch is started.
    case launch
    /// A key, a mouse event.
    case key(Key)
    /// The timer of a row fired (facts read off the timer and the clocks).
    case fired(RowID, Fire)
    /// The upload pipeline's status changed (S2).
    case pipelineStatus(UploadStatus)
    /// The screen has a new size (a resize, or a return from Ctrl-Z).
    case resize(Size)
    /// A panel takes focus (a click, a script).
    case focus(Panel)
    /// A second passed while timers run: the "next in …" columns are stale.
    case tick
    /// No scroll input for the quiet period: the scroll gesture ends (decision 7).
    case gestureQuiet
    /// The nested run in this mode returned (``NestedRun``).
    case runEnded(RunLoop.Mode)
    /// A terminating signal: quit as `q` does.
    case terminate
    /// A message for the status bar from the session itself (what quitting waits for).
    case notice(String)
    /// The loop woke up at `time` (the phases view redraws on wake-ups it did not cause, and the
    /// trace takes them while it is shown).
    case woke(at: Instant)
    /// The lifetime lab's screens or their timers changed (a screen went away, a leak fired).
    case labChanged
    /// A row's flash is over.
    case flashEnded(RowID)
    /// A timer's hook ended at `time`.
    case hookFinished(RowID, Hook.Result, time: Instant)
    /// The file `W` or `E` would write exists (it may be the config the session runs with): the
    /// status bar asks before it is overwritten.
    case fileExists(Export, path: String, isRunningConfig: Bool)
    /// The timers the state file kept, read at the start at wall-clock time `wallNow`, with what
    /// reading it had to say (`notice`: a corrupt file kept aside).
    case restore(SavedTimers, wallNow: Instant, notice: String?)
    /// The real timer of deleted row `id` was read at wall-clock time `wallNow`, before it went:
    /// `kept` is what the state file would keep of it (`nil` for a row not running or held), which
    /// `u` puts back.
    case deleted(RowID, kept: SavedTimers.Entry?, wallNow: Instant)
    /// `u` put row `id` back, read at wall-clock time `wallNow`: it goes on as `entry` kept it.
    case putBack(RowID, SavedTimers.Entry, wallNow: Instant)
    /// The clock read `time` for `action` on the row's stopwatch.
    case stopwatch(RowID, Stopwatch.Action, time: Instant)
    /// The program showing a row's desktop notification ended.
    case notified(RowID, Hook.Result)
    /// The audio player of a row's sound ended.
    case soundPlayed(RowID, Hook.Result)
}

extension Event {
    /// The row the event is about, if any.
    var row: RowID? {
        switch self {
        case .fired(let id, _), .flashEnded(let id), .hookFinished(let id, _, _), .notified(let id, _),
            .soundPlayed(let id, _):
            id
        default: nil
        }
    }
}
