extension TimerDefinition {
    /// `timers` as `[[timers]]` tables of a config file, through the field table, so the text loads back
    /// to the same timers. Name and mechanism are always written; any other field only where it differs
    /// from what a table without it gets.
    static func configText(_ timers: [TimerDefinition]) -> String {
        let alwaysWritten: Set = ["timers.name", "timers.mechanism"]
        let unset = TimerDefinition()
        var lines = ["# Timers written by timerdeck (W); add them to a config file, or use this one with --config."]
        for timer in timers {
            lines.append("")
            lines.append("[[timers]]")
            for field in fields {
                let value = field.written(timer)
                guard alwaysWritten.contains(field.key) || value != field.written(unset) else { continue }
                lines.append("\(field.key.dropFirst(field.section.count + 1)) = \(value)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
