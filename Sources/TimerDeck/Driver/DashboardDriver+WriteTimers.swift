extension DashboardDriver {
    /// Writes the defined timers' config `text` to `path` and says how it went in the status bar.
    func writeTimers(_ text: String, to path: String) {
        do {
            let file = try LineFile(path: path, role: "timers file")
            file.write(String(text.dropLast()))
            if let failure = file.failure {
                send(.notice("could not write the timers: \(failure)"))
            } else {
                send(.notice("wrote the timers to \(UserText.quote(path)); use it with --config"))
            }
        } catch {
            send(.notice("could not write the timers: \(error.message)"))
        }
    }
}
