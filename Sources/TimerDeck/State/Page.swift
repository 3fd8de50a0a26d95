/// What fills the screen between the title and status bars: the panels (`1`), the lifetime lab
/// (`2`), the run loop's phases (`3`), the timeline (`4`) or the selected timer in big digits (`5`).
enum Page: Sendable, Equatable {
    case panels, lab, phases, timeline
    case bigDigits
}
