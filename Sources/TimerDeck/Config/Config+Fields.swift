import RunLoopKit

extension Config {
    /// Every field of the config file with what it accepts (decisions.md 13): the one place the
    /// ranges live. `Resources/timerdeck.toml` documents the same fields, defaults and ranges.
    static let fields: [ConfigField<Config>] = [
        .integer("countdown.seconds", \.countdownSeconds, in: 1...3_600),
        .integer("ticker.fps", \.tickerFPS, in: fpsRange),
        .mode("ticker.mode", \.tickerMode),
        .duration("gesture.quiet", \.gestureQuiet, in: .milliseconds(1) ... .seconds(10)),
        .integer("log.capacity", \.logCapacity, in: 10...100_000),
        .duration("time.sleep", \.simulatedSleep, in: .seconds(1) ... .seconds(86_400)),
        .flag("terminal.mouse", \.mouse),
        .choice("uploads.sampler", \.uploads.sampler, ["route": .route, "host": .host]),
        .text("uploads.route", \.uploads.routePath, accepted: "a path to a GPX file", emptyIsNone: false),
        .text("uploads.url", \.uploads.url, accepted: "\"\" or an http(s) URL", emptyIsNone: true),
        .duration("uploads.timeout", \.uploads.httpTimeout, in: .milliseconds(100) ... .seconds(300)),
        .duration(
            "uploads.sample_interval", \.uploads.pipeline.sampleInterval, in: .milliseconds(100) ... .seconds(3_600)),
        .duration("uploads.upload_interval", \.uploads.pipeline.uploadInterval, in: .seconds(1) ... .seconds(86_400)),
        .mode("uploads.mode", \.uploads.pipeline.mode),
        .duration("uploads.flush_timeout", \.uploads.pipeline.flushTimeout, in: .zero ... .seconds(60)),
        .duration("uploads.retry_base", \.uploads.pipeline.retry.base, in: .milliseconds(100) ... .seconds(86_400)),
        .duration("uploads.retry_cap", \.uploads.pipeline.retry.cap, in: .milliseconds(100) ... .seconds(86_400)),
        .duration("uploads.keep_delivered", \.uploads.keepDelivered, in: .seconds(3_600) ... .seconds(8_760 * 3_600)),
        .integer("uploads.keep_delivered_count", \.uploads.keepDeliveredCount, in: 0...1_000_000_000),
        .flag("countdown.bell", \.countdownActions.bell),
        .flag("countdown.flash", \.countdownActions.flash),
        .text("countdown.hook", \.countdownActions.hook, accepted: TimerActions.hookRule, emptyIsNone: true),
        .duration("countdown.hook_limit", \.countdownActions.hookLimit, in: TimerActions.hookLimitRange),
        .choice("countdown.gcd_queue", \.gcdQueue, ["background": .background, "main": .main]),
    ]

    /// The ticker's refresh rates, for the config file and `--fps` alike.
    static let fpsRange = 1...240

    /// The fields by `section.key`.
    static let fieldsByKey = Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0) })
}
