/// A desktop notification naming a timer (`notify = true`), shown by `notify-send` when it is
/// installed; run like a hook, off the loop's thread.
///
/// ```swift
/// let note = DesktopNotification(title: "tea", body: "tea ended at 3.000s (dispatch)")
/// let (hook, environment) = note.hook(program: "notify-send")
/// ```
struct DesktopNotification: Equatable, Sendable {
    /// The summary line: the timer's name.
    var title: String
    /// What happened.
    var body: String

    /// The program that shows notifications, looked up on `PATH`.
    static let program = "notify-send"
    /// The exit status of `/bin/sh` when the program is not found.
    static let notFound: Int32 = 127
    /// What the status bar says when the program is missing.
    static let missingHint = "notify-send is not installed (Debian/Ubuntu: apt-get install libnotify-bin)"
    /// How long the program may take.
    static let timeLimit: Duration = .seconds(5)

    /// The hook that shows it with `program`; the texts go through the environment, never the shell.
    func hook(program: String = Self.program) -> (Hook, environment: [String: String]) {
        (
            Hook(
                command:
                    "exec \"$TIMERDECK_NOTIFIER\" --app-name=timerdeck -- \"$TIMERDECK_NOTIFY_TITLE\" \"$TIMERDECK_NOTIFY_BODY\"",
                timeLimit: Self.timeLimit),
            ["TIMERDECK_NOTIFIER": program, "TIMERDECK_NOTIFY_TITLE": title, "TIMERDECK_NOTIFY_BODY": body]
        )
    }
}
