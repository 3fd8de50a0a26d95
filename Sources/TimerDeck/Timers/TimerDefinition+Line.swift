extension TimerDefinition {
    /// The add-timer prompt's syntax, as its hint says it.
    static let lineSyntax = "NAME INTERVAL [runloop|dispatch|task] [once] [default|tracking|common]"

    /// A timer from one line typed at the add-timer prompt (`a`): its name, its interval, and in any
    /// order the mechanism, `once` and the mode; checked by the same field table as the config, so
    /// the message names the field, the value and what is accepted.
    static func parse(line: String, taken: [String]) throws(ConfigError) -> TimerDefinition {
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 2 else {
            throw ConfigError(message: "type \(lineSyntax), e.g. tea 3m dispatch once")
        }
        var table: [String: ConfigValue] = ["name": .text(words[0]), "interval": .text(words[1])]
        for word in words.dropFirst(2) {
            switch word {
            case "runloop", "dispatch", "task": table["mechanism"] = .text(word)
            case "once": table["repeats"] = .flag(false)
            case "default", "tracking", "common": table["mode"] = .text(word)
            default:
                throw ConfigError(
                    message: "\(UserText.quote(word)) is not runloop, dispatch, task, once, default, tracking or common"
                )
            }
        }
        let timer = try Config.timer(table, places: nil)
        guard !taken.contains(timer.name) else {
            throw ConfigError(message: "the name \(UserText.quote(timer.name)) is taken: give the timer another")
        }
        return timer
    }
}
