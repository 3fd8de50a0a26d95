import RunLoopKit

extension TimerDefinition {
    /// The standard scene (the README's screen), as the `[[timers]]` tables of `Resources/timerdeck.toml`
    /// define it: three SMS buttons (a run loop timer in the default mode, one in the common modes, a
    /// dispatch timer on the continuous clock: S1, M2, G1, G3), the ripple's display link (S3, M4) and
    /// the upload pipeline's sampler and uploader (S2).
    static let standardScene: [TimerDefinition] = [
        smsButton("sms-default", .runLoop, mode: .default),
        smsButton("sms-common", .runLoop, mode: .common),
        smsButton("sms-gcd", .dispatch, mode: .default),
        {
            var ripple = TimerDefinition()
            ripple.name = "ticker"
            ripple.kind = .displayLink
            ripple.drives = .ripple
            return ripple
        }(),
        uploadJob("sampler", .samples, every: .seconds(5)),
        uploadJob("uploader", .uploads, every: .seconds(300)),
    ]

    /// An SMS button's timer: every second, one second less; waits for `s`; its actions act when
    /// the countdown reaches Send. The dispatch one is on the continuous clock, first event at once (G2, G3).
    private static func smsButton(_ name: String, _ kind: Kind, mode: RunLoop.Mode) -> TimerDefinition {
        var timer = TimerDefinition()
        timer.name = name
        timer.kind = kind
        timer.mode = mode
        timer.drives = .countdown
        timer.startsAtLaunch = false
        timer.actions.actsOn = .end
        if kind == .dispatch {
            timer.clock = .continuous
            timer.firstFire = .now
        }
        return timer
    }

    /// One of the upload pipeline's jobs, in the common modes so scrolling does not hold it (S2, M3).
    private static func uploadJob(_ name: String, _ drives: Drives, every interval: Duration) -> TimerDefinition {
        var timer = TimerDefinition()
        timer.name = name
        timer.drives = drives
        timer.interval = interval
        timer.mode = .common
        return timer
    }
}
