import TerminalUI

/// How the dashboard's notifications reach the terminal it runs in: the sequence its environment
/// names (``TerminalNotification``), refined by the terminal's own answer to kitty's capability query.
///
/// Outside tmux, in a terminal whose environment names kitty's protocol or foot, the query goes out
/// at start (``query``). An answer makes the notifications OSC 99, with a body only where the
/// terminal takes one; no answer keeps the environment's choice (kitty before 0.36 does not answer).
///
/// ```swift
/// var notifier = TerminalNotifier(environment: ["TERM": "foot"])
/// notifier?.receive("99;i=timerdeck-query:p=?;p=title,body")   // foot 1.18: OSC 99 from now on
/// ```
package struct TerminalNotifier: Equatable, Sendable {
    /// The sequence notifications are shown with.
    package private(set) var kind: TerminalNotification
    /// Whether the dashboard runs inside tmux: sequences are wrapped in its passthrough.
    package let inTmux: Bool
    /// What the terminal said it supports, once it answered.
    package private(set) var support: KittyNotificationSupport?

    /// The notifier for the terminal `environment` describes (its variables and `TMUX`); `nil` for
    /// a terminal with no notification sequence.
    package init?(environment: [String: String]) {
        guard let kind = TerminalNotification(environment: environment) else { return nil }
        self.kind = kind
        inTmux = !(environment["TMUX"] ?? "").isEmpty
    }

    /// What to write at start to ask the terminal, if anything.
    package var query: String? {
        !inTmux && [.osc99, .osc777].contains(kind) ? KittyNotificationSupport.query : nil
    }

    /// Takes the terminal's `reply` (an OSC body); says whether it was the answer to ``query``.
    @discardableResult
    package mutating func receive(_ reply: String) -> Bool {
        guard query != nil, let support = KittyNotificationSupport(reply: reply) else { return false }
        self.support = support
        kind = .osc99
        return true
    }

    /// The bytes that show `title` and `body`.
    package func sequence(title: String, body: String) -> String {
        kind.sequence(title: title, body: body, inTmux: inTmux, kitty: support)
    }
}
