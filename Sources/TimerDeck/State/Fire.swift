import RunLoopKit

/// One fire of a row's timer as the driver reports it.
enum Fire: Equatable, Sendable {
    /// A run loop timer fired: when, in which mode, how late, how many grid points it stands for.
    case timer(time: Instant, mode: RunLoop.Mode?, lateness: Duration, ticks: Int, isManual: Bool)
    /// A dispatch timer's event on the loop: `clockNow` is the timer's own clock at the event (G3).
    case dispatch(time: Instant, mode: RunLoop.Mode?, clockNow: Instant, ticks: Int, isManual: Bool)
    /// A display link callback: the frame's vsync `timestamp`, the frame `duration`, and every frame
    /// skipped since the link was made (D3).
    case frame(time: Instant, mode: RunLoop.Mode?, timestamp: Instant, duration: Duration, skippedFrames: Int)
}
