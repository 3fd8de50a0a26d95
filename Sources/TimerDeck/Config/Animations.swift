/// How much the dashboard moves (reduced motion, as Textual's `TEXTUAL_ANIMATIONS`): `[terminal]
/// animations` in the config, or the `TIMERDECK_ANIMATIONS` environment variable, which wins.
///
/// ```swift
/// var config = Config()
/// config.animations = try Animations.validate(environmentValue: "none")
/// ```
package enum Animations: String, CaseIterable, Equatable, Sendable {
    /// Nothing moves by itself: the ripple's display link does not start with the dashboard (`s`
    /// still starts it) and rows do not flash; alerts stay in the status bar as words.
    case none
    /// The ripple at most ``basicFrameRate`` frames a second; flashes as usual.
    case basic
    /// Everything as designed.
    case full

    /// The environment variable that sets it.
    package static let environmentVariable = "TIMERDECK_ANIMATIONS"
    /// The ripple's frame rate at most, with `basic`.
    package static let basicFrameRate = 10

    /// The value of ``environmentVariable``, checked: an unknown one is an error naming the
    /// variable and what it accepts.
    package static func validate(environmentValue text: String) throws(ConfigError) -> Animations {
        try ConfigError.choice(text, for: environmentVariable + "=")
    }

    /// `timers` as this setting runs them: with `none` the ripple waits for `s`, with `basic` it
    /// runs at ``basicFrameRate`` frames a second at most.
    func adjusting(_ timers: [TimerDefinition]) -> [TimerDefinition] {
        timers.map { timer in
            guard timer.drives == .ripple else { return timer }
            var adjusted = timer
            switch self {
            case .none: adjusted.startsAtLaunch = false
            case .basic: adjusted.refreshRate = min(timer.refreshRate, Self.basicFrameRate)
            case .full: break
            }
            return adjusted
        }
    }
}
