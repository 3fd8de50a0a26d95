extension Scene.Row {
    /// The row of a timer the user defined (a `[[timers]]` table).
    init(defined timer: TimerDefinition) {
        self.init(
            name: timer.name, mechanism: .defined(timer), mode: timer.mode, startsAtLaunch: timer.startsAtLaunch,
            actions: timer.actions)
    }
}
