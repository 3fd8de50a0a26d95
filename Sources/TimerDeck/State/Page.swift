/// What fills the screen between the title and status bars: the panels (`1`), the lifetime lab
/// (`2`), the run loop's phases (`3`) or the timeline (`4`).
enum Page: Sendable, Equatable {
    case panels, lab, phases, timeline
}
