import RunLoopKit

extension Config {
    /// Every field of the config file with what it accepts (decisions.md 13): the one place the
    /// ranges live. `Resources/timerdeck.toml` documents the same fields, defaults and ranges.
    static let fields = sectionFields + themeFields

    /// The fields of the sections other than `[theme]` (``themeFields``).
    private static let sectionFields: [ConfigField<Config>] = [
        .duration("gesture.quiet", \.gestureQuiet, in: .milliseconds(1) ... .seconds(10)),
        .integer("log.capacity", \.logCapacity, in: 10...100_000),
        .duration("time.sleep", \.simulatedSleep, in: .seconds(1) ... .seconds(86_400)),
        .flag("terminal.mouse", \.mouse),
        .choice("terminal.animations", \.animations, ["none": .none, "basic": .basic, "full": .full]),
        .choice("uploads.sampler", \.uploads.sampler, ["route": .route, "host": .host, "loop": .loop]),
        .text("uploads.route", \.uploads.routePath, accepted: "a path to a GPX file", emptyIsNone: false),
        .text(
            "uploads.url", \.uploads.url, accepted: "\"\" or an http(s) or prometheus+http(s) URL", emptyIsNone: true),
        .choice("uploads.sink", \.uploads.sink, ["json": .json, "prometheus": .prometheus]),
        .text("uploads.instance", \.uploads.instance, accepted: "\"\" or a label value", emptyIsNone: true),
        .parsed(
            "uploads.job", \.uploads.job, accepted: "a label value", parse: { $0.isEmpty ? nil : $0 }, write: { $0 }),
        .parsed(
            "uploads.labels", \.uploads.labels, accepted: "\"\" or \"name=value,name=value\"",
            parse: UploadsConfig.parseLabels, write: UploadsConfig.writeLabels),
        .text("uploads.username", \.uploads.username, accepted: "\"\" or a user name", emptyIsNone: true),
        .text("uploads.password_file", \.uploads.passwordFile, accepted: "\"\" or a path", emptyIsNone: true),
        .text("uploads.bearer_token_file", \.uploads.bearerTokenFile, accepted: "\"\" or a path", emptyIsNone: true),
        .text(
            "uploads.bearer_token_env", \.uploads.bearerTokenEnvironment,
            accepted: "\"\" or an environment variable's name", emptyIsNone: true),
        .parsed(
            "uploads.headers", \.uploads.headers, accepted: "\"\" or \"Name=value,Name=value\"",
            parse: UploadsConfig.parseLabels, write: UploadsConfig.writeLabels),
        .text("uploads.ca_file", \.uploads.caFile, accepted: "\"\" or a path", emptyIsNone: true),
        .text("uploads.cert_file", \.uploads.certFile, accepted: "\"\" or a path", emptyIsNone: true),
        .text("uploads.key_file", \.uploads.keyFile, accepted: "\"\" or a path", emptyIsNone: true),
        .flag("uploads.insecure_skip_verify", \.uploads.insecureSkipVerify),
        .flag("uploads.allow_plain_http", \.uploads.allowPlainHTTP),
        .duration("uploads.timeout", \.uploads.httpTimeout, in: .milliseconds(100) ... .seconds(300)),
        .text(
            "uploads.confirm_url", \.uploads.confirmURL,
            accepted: "\"\" or the store's http(s) URL, e.g. http://store:9090",
            emptyIsNone: true),
        .duration("uploads.confirm_within", \.uploads.confirmWithin, in: .seconds(1) ... .seconds(3_600)),
        .text(
            "uploads.fallback_url", \.uploads.fallbackURL, accepted: "\"\" or an http(s) or prometheus+http(s) URL",
            emptyIsNone: true),
        .duration("uploads.flush_timeout", \.uploads.pipeline.flushTimeout, in: .zero ... .seconds(60)),
        .duration("uploads.retry_base", \.uploads.pipeline.retry.base, in: .milliseconds(100) ... .seconds(86_400)),
        .duration("uploads.retry_cap", \.uploads.pipeline.retry.cap, in: .milliseconds(100) ... .seconds(86_400)),
        .duration("uploads.keep_delivered", \.uploads.keepDelivered, in: .seconds(3_600) ... .seconds(8_760 * 3_600)),
        .integer("uploads.keep_delivered_count", \.uploads.keepDeliveredCount, in: 0...1_000_000_000),
        .integer("uploads.outbox_cap_mb", \.uploads.outboxCapMegabytes, in: 0...1_000_000),
    ]

    /// A display link's refresh rates, for the config file and `--fps` alike.
    static let fpsRange = 1...240

    /// Fields that moved into the `[[timers]]` tables, with where they went: the standard scene's
    /// rows are timers like any other now.
    static let movedFields: [String: String] = [
        "countdown.seconds": "countdown = N in each [[timers]] table with drives = \"countdown\"",
        "countdown.bell": "bell in each [[timers]] table with drives = \"countdown\"",
        "countdown.flash": "flash in each [[timers]] table with drives = \"countdown\"",
        "countdown.hook": "hook in each [[timers]] table with drives = \"countdown\"",
        "countdown.hook_limit": "hook_limit in each [[timers]] table with drives = \"countdown\"",
        "countdown.gcd_queue": "mechanism = \"main-queue\" in the [[timers]] table named \"sms-gcd\"",
        "ticker.fps": "refresh_rate in the [[timers]] table with drives = \"ripple\"",
        "ticker.mode": "mode in the [[timers]] table with drives = \"ripple\"",
        "uploads.sample_interval": "interval in the [[timers]] table with drives = \"samples\"",
        "uploads.upload_interval": "interval in the [[timers]] table with drives = \"uploads\"",
        "uploads.mode": "mode in the [[timers]] tables with drives = \"samples\" and \"uploads\"",
    ]

    /// The fields by `section.key`.
    static let fieldsByKey = Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0) })
}
