extension TimerDefinition {
    /// `timers` as `[[timers]]` tables of a config file, every field written through the field table,
    /// so the text loads back to the same timers.
    static func configText(_ timers: [TimerDefinition]) -> String {
        var lines = ["# Timers written by timerdeck (W); add them to a config file, or use this one with --config."]
        for timer in timers {
            lines.append("")
            lines.append("[[timers]]")
            for field in fields {
                let value = field.written(timer)
                // An absent hook is left out: `hook = ""` would say the same.
                if field.key == "timers.hook" && timer.actions.hook == nil { continue }
                lines.append("\(field.key.dropFirst(field.section.count + 1)) = \(value)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
