import Testing

extension Tag {
    /// Drives the real dashboard in tmux (a real terminal).
    @Tag public static var tmux: Self
    /// Kills a real process and checks what survives.
    @Tag public static var crash: Self
    /// Runs the benchmark binary.
    @Tag public static var benchmark: Self
    /// Runs a built executable as a child process.
    @Tag public static var process: Self
    /// Takes seconds or more; `swift test` still runs it.
    @Tag public static var slow: Self
}
