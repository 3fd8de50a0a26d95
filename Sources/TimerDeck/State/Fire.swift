import RunLoopKit
import TimerSlots

/// One fire of a row's timer as its adapter reports it: facts read off the timer and the clocks,
/// never a number derived from them (the state derives those, once).
enum Fire: Equatable, Sendable {
    /// A run loop timer fired: when, in which mode, how long after its fire date on the loop's
    /// clock and how many grid points it stands for. RunLoopKit's ``TimerSlot`` computes those two
    /// from the timer's fire date and the loop's clock at the callout (C-T6); they are its numbers,
    /// taken as they are (the state only puts the lateness in real terms).
    case timer(time: Instant, mode: RunLoop.Mode?, lateness: Duration, ticks: Int, isManual: Bool)
    /// An async task woke from a sleep on the loop (C-X2): `time` the loop's clock when its wake-up
    /// ran, in `mode`; `due` the deadline it slept until, `nil` for a fire by hand (T2).
    case wake(time: Instant, mode: RunLoop.Mode?, due: Instant?)
    /// A dispatch timer's event on the loop: `clockNow` is the timer's own clock at the event (G3),
    /// `firstDue` when its first event was due on that clock (the grid's origin), `ticks` the
    /// event's count (C-G4).
    case dispatch(
        time: Instant, mode: RunLoop.Mode?, clockNow: Instant, firstDue: Instant, ticks: Int, isManual: Bool)
    /// A display link callback: the frame's vsync `timestamp`, the frame `duration`, and every frame
    /// skipped since the link was made (D3).
    case frame(time: Instant, mode: RunLoop.Mode?, timestamp: Instant, duration: Duration, skippedFrames: Int)
}
