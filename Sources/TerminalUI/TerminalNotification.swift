/// The escape sequence a terminal turns into a desktop notification, which reaches the desktop the
/// terminal runs on — over SSH too. Which one is chosen from the environment the terminal sets;
/// inside tmux it is wrapped in tmux's passthrough (`set -g allow-passthrough on`, tmux 3.3 on).
///
/// ```swift
/// if let kind = TerminalNotification(environment: ["TERM": "foot"]) {
///     let bytes = kind.sequence(title: "tea", body: "tea ended", inTmux: false)
///     // "\u{1B}]777;notify;tea;tea ended\u{07}"
/// }
/// ```
public enum TerminalNotification: String, Equatable, Sendable, CaseIterable {
    /// `OSC 9 ; text BEL`: iTerm2, WezTerm, Ghostty.
    case osc9
    /// `OSC 777 ; notify ; title ; body BEL`: foot, rxvt-unicode (its notify extension).
    case osc777
    /// `OSC 99 ; metadata ; payload ST`, kitty's own protocol: a title, then a body. What the
    /// terminal takes can be asked (``KittyNotificationSupport/query``).
    case osc99

    /// The environment variables ``init(environment:)`` reads.
    public static let environmentNames = [
        "TERM", "TERM_PROGRAM", "KITTY_WINDOW_ID", "ITERM_SESSION_ID", "LC_TERMINAL", "WEZTERM_PANE",
        "GHOSTTY_RESOURCES_DIR",
    ]

    /// The kind the terminal described by `environment` shows; `nil` when none is known (xterm,
    /// the Linux console, GNOME Terminal, Konsole). The markers a terminal exports (kitty's
    /// `KITTY_WINDOW_ID`, iTerm2's `ITERM_SESSION_ID`, …) are inherited by a tmux started in it,
    /// where `TERM` and `TERM_PROGRAM` are tmux's.
    public init?(environment: [String: String]) {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        let has = { (name: String) in !(environment[name] ?? "").isEmpty }
        if has("KITTY_WINDOW_ID") || term == "xterm-kitty" {
            self = .osc99
        } else if has("ITERM_SESSION_ID") || program == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2"
            || has("WEZTERM_PANE") || program == "WezTerm" || has("GHOSTTY_RESOURCES_DIR") || program == "ghostty"
            || term == "xterm-ghostty"
        {
            self = .osc9
        } else if term.hasPrefix("foot") || term.hasPrefix("rxvt-unicode") {
            self = .osc777
        } else {
            return nil
        }
    }

    /// The bytes that show `title` and `body`; each text loses its control characters (and, where
    /// `;` separates fields, its semicolons), so nothing in a timer's name ends the sequence early.
    /// `inTmux` wraps them for tmux's passthrough: `ESC P tmux ;`, each `ESC` doubled, `ESC \`.
    /// With OSC 99, a terminal whose answer (`kitty`) takes no body gets one title, `title: body`.
    public func sequence(title: String, body: String, inTmux: Bool, kitty: KittyNotificationSupport? = nil)
        -> String
    {
        let escape = "\u{1B}"
        let plain = { (text: String, keepsSemicolons: Bool) in
            String(
                text.unicodeScalars.map {
                    $0.value < 0x20 || $0.value == 0x7F || (!keepsSemicolons && $0 == ";") ? " " : Character($0)
                })
        }
        let bytes: String
        switch self {
        case .osc9: bytes = "\(escape)]9;\(plain(title, true)): \(plain(body, true))\u{07}"
        case .osc777: bytes = "\(escape)]777;notify;\(plain(title, false));\(plain(body, false))\u{07}"
        case .osc99 where kitty.map({ !$0.payloads.contains("body") }) ?? false:
            bytes = "\(escape)]99;i=timerdeck;\(plain(title, true)): \(plain(body, true))\(escape)\\"
        case .osc99:
            // d=0: more follows; the body, p=body, completes notification "timerdeck".
            bytes =
                "\(escape)]99;i=timerdeck:d=0;\(plain(title, true))\(escape)\\"
                + "\(escape)]99;i=timerdeck:d=1:p=body;\(plain(body, true))\(escape)\\"
        }
        guard inTmux else { return bytes }
        return "\(escape)Ptmux;" + bytes.map { $0 == "\u{1B}" ? escape + escape : String($0) }.joined() + "\(escape)\\"
    }
}
