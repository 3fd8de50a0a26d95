import KeptTimers
import RunLoopKit

extension TimerStatus {
    /// The timers the state file at `statePath` keeps, at wall-clock time `wallNow`, none when it
    /// is missing. A countdown's length (for waybar's percentage) is the one the file keeps; a file
    /// an older timerdeck wrote keeps none, and then `config` and the file's timers added with `a`
    /// give it. Nothing is written.
    ///
    /// ```swift
    /// let status = try TimerStatus(statePath: TimerStateFile.defaultPath, config: Config(), wallNow: wallNow)
    /// print(status.text(.tmux))   // "tea 02:41 · run 12:03.4"
    /// ```
    /// - Throws: ``TimerStateFileError`` for a file that is not a state file, or from a newer timerdeck.
    package init(statePath: String, config: Config, wallNow: Instant) throws(TimerStateFileError) {
        let saved = try TimerStateFile(path: statePath).peek() ?? SavedTimers()
        let countdowns = (config.timers + saved.added).filter { $0.drives == .countdown }
        let defined = Dictionary(countdowns.map { ($0.name, $0.countdownLength) }) { first, _ in first }
        self.init(
            saved.entries, countdowns: defined.merging(saved.countdownLengths) { _, kept in kept }, wallNow: wallNow)
    }
}
