import KeptTimers

extension TimerDefinition {
    /// The add-timer prompt's syntax, as its hint says it.
    static let lineSyntax =
        "NAME INTERVAL [runloop|dispatch|task] [once] [default|tracking|common] [countdown|overtime|stopwatch] "
        + "[bell|flash|notify|sound|quiet], or NAME HH:MM [bell|flash|notify|sound|quiet]"

    /// A timer from one line typed at the add-timer prompt (`a`): its name, its interval, and in any
    /// order the mechanism, `once` and the mode; checked by the same field table as the config, so
    /// the message names the field, the value and what is accepted. `countdown` makes it an SMS
    /// countdown as long as the interval (whole seconds) on a timer firing every second;
    /// `overtime` too, counting on past its end. `stopwatch` makes it a stopwatch whose display the
    /// timer refreshes every interval. `NAME HH:MM` (or a date, `YYYY-MM-DDTHH:MM`) is an
    /// alarm at that local time. `bell`, `flash`, `notify` and `sound` each turn that action on,
    /// `quiet` turns them all off (an alarm and a countdown have the first three at their end otherwise).
    static func parse(line: String, taken: [String]) throws(ConfigError) -> TimerDefinition {
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 2 else {
            throw ConfigError(message: "type \(lineSyntax), e.g. tea 3m dispatch once")
        }
        var table: [String: ConfigValue] = ["name": .text(words[0]), "interval": .text(words[1])]
        if FirstFire(text: words[1])?.isClockTime != true, Self.isShapedLikeClockTime(words[1]) {
            throw ConfigError(
                message: "\(UserText.quote(words[1])) is not a clock time: an alarm is NAME HH:MM (hours 00…23, "
                    + "minutes and seconds 00…59) or NAME YYYY-MM-DDTHH:MM, a date that exists")
        }
        let isAlarm = FirstFire(text: words[1])?.isClockTime == true
        if isAlarm {
            table = ["name": .text(words[0]), "mechanism": .text("alarm"), "first_fire": .text(words[1])]
        }
        for word in words.dropFirst(2) {
            switch word {
            case _ where TimerActions.switches.contains(word): table[word] = .flag(true)
            case "quiet": for action in TimerActions.switches { table[action] = .flag(false) }
            case _ where isAlarm:
                throw ConfigError(
                    message: "an alarm is NAME HH:MM or NAME YYYY-MM-DDTHH:MM, then only "
                        + "bell, flash, notify, sound or quiet")
            case "runloop", "dispatch", "task": table["mechanism"] = .text(word)
            case "once": table["repeats"] = .flag(false)
            case "default", "tracking", "common": table["mode"] = .text(word)
            case "stopwatch": table["drives"] = .text("stopwatch")
            case "countdown", "overtime":
                table["drives"] = .text("countdown")
                if word == "overtime" { table["overtime"] = .flag(true) }
            default:
                throw ConfigError(
                    message: "\(UserText.quote(word)) is not runloop, dispatch, task, once, default, tracking, common, "
                        + "countdown, overtime, stopwatch, bell, flash, notify, sound or quiet")
            }
        }
        if table["drives"] == .text("countdown") {
            // The interval is the countdown's length; its timer fires every second, a second a fire.
            guard case .text(let length) = table["interval"], let seconds = DurationText.parse(length),
                seconds >= .seconds(1), seconds <= .seconds(countdownRange.upperBound),
                seconds.nanoseconds % 1_000_000_000 == 0
            else {
                throw ConfigError(
                    message: "a countdown's length \(UserText.quote(words[1])) is invalid (accepted: whole seconds, "
                        + "1s…24h, e.g. tea 3m countdown)")
            }
            table["countdown"] = .integer(Int(seconds.nanoseconds / 1_000_000_000))
            table["interval"] = .text("1s")
        }
        let timer = try Config.timer(table, places: nil)
        guard !taken.contains(timer.name) else {
            throw ConfigError(message: "the name \(UserText.quote(timer.name)) is taken: give the timer another")
        }
        return timer
    }

    /// Whether `word` is written as a clock time or a date and time would be (digits, `:`, `-` and
    /// `T`, with a `:`), whatever its numbers: `25:99` is meant as a time, not as an interval.
    private static func isShapedLikeClockTime(_ word: String) -> Bool {
        word.contains(":") && word.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ":" || $0 == "-" || $0 == "T") }
    }
}
