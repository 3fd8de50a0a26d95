/// What a key asks the dashboard to do (``Keymap``; ``KeyGuide`` says what each key does).
enum Command: Equatable, Sendable {
    /// `Tab` / `Shift-Tab`: focus the next or previous panel.
    case focusNext, focusPrevious
    /// `↑` / `↓` outside the log: select a row.
    case selectPrevious, selectNext
    /// `Enter`: press the selected button.
    case press
    /// `s`: start or stop the selected timer.
    case startOrStop
    /// `p`: suspend or resume the selected timer.
    case suspendOrResume
    /// `m`: move the selected timer to the next mode.
    case moveMode
    /// `f`: fire the selected timer now.
    case fireNow
    /// `x`: invalidate the selected timer.
    case invalidate
    /// `t`: hold the run loop in the tracking mode until `t` again.
    case toggleTrackingHold
    /// Scroll the fire log by `lines` (negative = towards older entries); starts or extends a gesture.
    case scroll(lines: Int)
    /// `Home` / `End` on the log.
    case scrollToOldest, scrollToNewest
    /// Mouse button pressed / released: a drag holds the tracking mode until release (decision 7).
    case dragBegan, dragEnded
    /// `+` / `-`: ticker frame interval.
    case frameIntervalUp, frameIntervalDown
    /// `l`: toggle the ticker's slow-callback load (to show skipped frames, D3).
    case toggleSlowLoad
    /// `?`: show or hide the help overlay.
    case toggleHelp
    /// `Esc`: close the help overlay.
    case dismiss
    /// `q`: quit.
    case quit
    /// Shows the dashboard (`1`), the lab (`2`), the phases (`3`) or the timeline (`4`).
    case show(Page)
    /// In the lab: select the previous / next strategy; open a screen of it (`o`), close its
    /// newest (`c`), invalidate the timers its closed screens left behind (`i`).
    case selectStrategy(by: Int)
    case openScreen, closeScreen, stopLeftBehind
    /// `M`: run the loop in the custom mode until `M` again.
    case toggleModal
    /// `C`: add the custom mode to the common modes (irreversible, C-M5).
    case makeModalCommon
    /// The time-control keys: `space`, `.`, `<`, `>`, `z`, `w`, `e`.
    case time(TimeControlKey)
    /// Deletes the selected timer, if it is one the user defined or added (`d`).
    case deleteTimer
    /// Puts back the timer the last delete took, with its definition (`u`).
    case undoDelete
    /// Asks for a new timer's definition and adds it (`a`).
    case addTimer
    /// Asks for a file and writes every row's timer definition to it (`W`).
    case writeTimers
    /// Takes a lap of the selected stopwatch (`L`).
    case lap
    /// Shows or hides the selected stopwatch's laps (`v`).
    case toggleLaps
    /// Asks for a file and writes the selected stopwatch's laps to it as CSV (`E`).
    case exportLaps
    /// Tells the state of every timer on one line (`r`).
    case report
}

/// What a time-control key asks for; the simulated sleep's length comes from the scene.
enum TimeControlKey: Equatable, Sendable {
    case togglePause, step, slower, faster, sleep
    /// The wall clock back (`-1`) or forward (`+1`) by an hour.
    case jumpWall(hours: Int)
}
