import RunLoopKit
import TerminalUI
import Uploads

/// The dashboard's settings, read from a TOML file (`Resources/timerdeck.toml` documents every field;
/// ``fields`` lists them with their accepted ranges).
///
/// ```swift
/// var config = try Config.parse(tomlText)
/// config.setRippleRefreshRate(30)
/// ```
package struct Config: Equatable, Sendable {
    /// Quiet period that ends a scroll gesture (decision 7).
    package var gestureQuiet: Duration = .milliseconds(250)
    /// Fire-log entries kept in memory.
    package var logCapacity = 1_000
    /// The machine sleep `z` simulates: continuous and wall clocks move on by it, uptime does not (G3).
    package var simulatedSleep: Duration = .seconds(30)
    /// Whether mouse events are enabled.
    package var mouse = true
    /// How much the dashboard moves by itself (``Animations``).
    package var animations = Animations.full
    /// The periodic sample-and-upload pipeline (S2).
    package var uploads = UploadsConfig()
    /// The dashboard's timers, from the `[[timers]]` tables in the file's order; a file without any
    /// keeps the standard scene's (the SMS buttons, the ripple, the upload jobs).
    package var timers = TimerDefinition.standardScene
    /// The built-in theme the `[theme]` section names (``theme`` is the one in use).
    package var baseTheme = Theme.dark
    /// The colours `[theme]` gives roles instead of the built-in theme's.
    package var themeColors: [ColorRole: TerminalColor] = [:]
    /// `--color`: whether the screen is coloured (`NO_COLOR` counts with `auto`).
    package var color = ColorChoice.auto
    /// The keys the `[keys]` section moved.
    var keys = KeyBindings()
    /// Where the file set each field, for messages about them after loading.
    var places = ConfigPlaces()

    /// The built-in defaults (the same values as the shipped config file).
    package init() {}

    /// `--fps`: the ripple's display link runs at `fps` Hz.
    package mutating func setRippleRefreshRate(_ fps: Int) {
        for index in timers.indices where timers[index].drives == .ripple { timers[index].refreshRate = fps }
    }

    /// Whether a timer drives the upload pipeline (then the outbox is opened and the panel shown).
    package var hasUploads: Bool { timers.contains { $0.drives.isUploadJob } }

    /// The upload pipeline's settings: the `[uploads]` section's, with the intervals and modes of
    /// the timers that drive its jobs.
    package var pipelineSettings: UploadPipeline.Settings {
        var settings = uploads.pipeline
        for timer in timers {
            switch timer.drives.uploadJob {
            case .sample:
                settings.sampleInterval = timer.interval
                settings.sampleMode = timer.mode
            case .upload:
                settings.uploadInterval = timer.interval
                settings.uploadMode = timer.mode
            case nil:
                break
            }
        }
        return settings
    }
}
