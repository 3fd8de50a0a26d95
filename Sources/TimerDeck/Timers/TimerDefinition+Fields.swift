import KeptTimers
import RunLoopKit

extension TimerDefinition {
    /// Every field of a `[[timers]]` table with what it accepts: the one place their ranges live.
    /// `Resources/timerdeck.toml` documents the same fields.
    static let fields: [ConfigField<TimerDefinition>] = [
        .text("timers.name", \.optionalName, accepted: TimerName.rule, emptyIsNone: false),
        .choice(
            "timers.mechanism", \.kind,
            [
                "runloop": .runLoop, "dispatch": .dispatch, "main-queue": .mainQueue, "displaylink": .displayLink,
                "task": .task, "alarm": .alarm,
            ]),
        .duration("timers.interval", \.interval, in: intervalRange),
        .integer("timers.refresh_rate", \.refreshRate, in: Config.fpsRange),
        .flag("timers.repeats", \.repeats),
        .duration("timers.tolerance", \.tolerance, in: .zero ... .seconds(3_600)),
        .mode("timers.mode", \.mode),
        .choice("timers.clock", \.clock, ["uptime": .uptime, "continuous": .continuous, "wall": .wall]),
        .parsed(
            "timers.first_fire", \.firstFire, accepted: FirstFire.accepted, parse: FirstFire.init(text:),
            write: \.text),
        .flag("timers.start", \.startsAtLaunch),
        .choice(
            "timers.drives", \.drives,
            [
                "log": .log, "countdown": .countdown, "ripple": .ripple, "samples": .samples, "uploads": .uploads,
                "stopwatch": .stopwatch,
            ]),
        .integer("timers.countdown", \.countdownSeconds, in: countdownRange),
        .flag("timers.overtime", \.overtime),
        .flag("timers.bell", \.actions.bell),
        .flag("timers.flash", \.actions.flash),
        .flag("timers.notify", \.actions.notify),
        .flag("timers.sound", \.actions.sound),
        .text("timers.hook", \.actions.hook, accepted: TimerActions.hookRule, emptyIsNone: true),
        .duration("timers.hook_limit", \.actions.hookLimit, in: TimerActions.hookLimitRange),
        .choice("timers.act_on", \.actions.actsOn, ["fire": .fire, "end": .end]),
    ]

    /// The fields by `timers.key`.
    static let fieldsByKey = Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0) })

    /// The lengths a countdown accepts, in seconds: up to a day.
    static let countdownRange = 1...86_400
    /// The intervals a timer accepts.
    static let intervalRange: ClosedRange<Duration> = .milliseconds(1) ... .seconds(86_400)
    /// The name as an optional, for the field table (an empty name is refused there).
    var optionalName: String? {
        get { name.isEmpty ? nil : name }
        set { name = newValue ?? "" }
    }

    /// What is wrong with the definition as a whole (its fields each passed), with the field (its key
    /// in the table) the message is about, or `nil`.
    var problem: (key: String, message: String)? {
        if !TimerName.isValid(name) {
            return ("name", "field 'timers.name' = \(UserText.quote(name)) is invalid (accepted: \(TimerName.rule))")
        }
        if kind.isOnUptimeClock && clock != .uptime {
            return (
                "clock",
                "field 'timers.clock' = \"\(clock)\" is invalid for mechanism = \"\(kind.rawValue)\" "
                    + "(accepted: \"uptime\"; use mechanism = \"dispatch\" for the continuous or wall clock)"
            )
        }
        if !kind.hasModes && kind != .alarm && mode != .default {
            return (
                "mode",
                "field 'timers.mode' is set for a dispatch timer, which has no mode (G1) "
                    + "(accepted: leave it out, or use mechanism = \"runloop\")"
            )
        }
        if kind == .alarm && !firstFire.isClockTime {
            return (
                "first_fire",
                "an alarm rings at a local time: field 'timers.first_fire' = \"\(firstFire.text)\" is invalid for "
                    + "mechanism = \"alarm\" (accepted: a time of day \"HH:MM\" or a date \"YYYY-MM-DDTHH:MM\")"
            )
        }
        if actions.actsOn == .end && !isOneShot && drives != .countdown {
            return (
                "act_on",
                "field 'timers.act_on' = \"end\" is invalid for a repeating timer, which never ends by itself "
                    + "(accepted: \"fire\", or repeats = false, or drives = \"countdown\")"
            )
        }
        return drivesProblem.map { ("drives", $0) }
    }

    /// The first of `keys` (a table's field names) that would be accepted and then do nothing for
    /// this timer, with why, or `nil`: such a field is refused rather than silently ignored.
    func ignoredField(among keys: Set<String>) -> (key: String, message: String)? {
        var ignored: [(key: String, why: String)] = []
        if kind == .displayLink {
            let why = "a display link, which fires once a frame at refresh_rate Hz on the uptime clock"
            ignored += ["interval", "tolerance", "clock", "first_fire", "repeats"].map { ($0, why) }
            let quiet = "a display link, whose frames only draw (a skip is logged; nothing rings, flashes or runs)"
            ignored += (TimerActions.switches + ["hook", "hook_limit", "act_on"]).map { ($0, quiet) }
        } else {
            ignored.append(("refresh_rate", "mechanism = \"\(kind.rawValue)\"; only a display link has a refresh rate"))
        }
        if kind == .alarm {
            let why = "an alarm, which rings once at first_fire on the wall clock, in any mode"
            ignored += ["interval", "repeats", "tolerance", "clock", "mode", "drives"].map { ($0, why) }
        }
        if drives != .countdown {
            ignored += ["countdown", "overtime"].map { ($0, "a timer that drives no countdown") }
        }
        if actions.hook == nil { ignored.append(("hook_limit", "a timer without a hook")) }
        return ignored.first { keys.contains($0.key) }.map {
            ($0.key, "field 'timers.\($0.key)' does nothing for \($0.why) (accepted: leave it out)")
        }
    }

    /// What is wrong with ``drives`` for this timer's mechanism, or `nil`.
    private var drivesProblem: String? {
        let field = "field 'timers.drives' = \"\(drives.rawValue)\" is invalid for"
        switch drives {
        case .log:
            return nil
        case .countdown where kind == .displayLink || !repeats, .stopwatch where kind == .displayLink || !repeats:
            return "\(field) a display link or a one-shot timer (accepted: a repeating \"runloop\", "
                + "\"dispatch\", \"main-queue\" or \"task\" timer"
                + (drives == .countdown ? ": one fire, one second less)" : ": its fires refresh the time shown)")
        case .ripple where kind != .displayLink:
            return "\(field) mechanism = \"\(kind.rawValue)\" (accepted: mechanism = \"displaylink\")"
        case .samples where kind != .runLoop || !repeats || interval < .milliseconds(100),
            .uploads where kind != .runLoop || !repeats || interval < .seconds(1):
            let shortest = drives == .samples ? "100ms" : "1s"
            return "\(field) this timer (accepted: a repeating \"runloop\" timer with an interval of at least "
                + "\(shortest))"
        default:
            return nil
        }
    }
}
