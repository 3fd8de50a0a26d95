/// What a terminal speaking kitty's notification protocol (OSC 99) says it can show, from its answer
/// to ``query``: the payloads it takes (`title`, `body`, …) and the occasions it shows them on.
///
/// kitty answers since 0.36, and foot since 1.18; a terminal that does not know the protocol says
/// nothing.
///
/// ```swift
/// let support = KittyNotificationSupport(reply: "99;i=timerdeck-query:p=?;a=focus:o=always:p=title,body,?")
/// support?.payloads.contains("body")   // true
/// ```
public struct KittyNotificationSupport: Equatable, Sendable {
    /// The id the query is sent with, which the answer repeats.
    public static let queryID = "timerdeck-query"

    /// `OSC 99 ; i=timerdeck-query:p=? ; ST`: asks what the terminal supports. Not for tmux, which
    /// does not hand the outer terminal's answer back to the pane.
    public static let query = "\u{1B}]99;i=\(queryID):p=?;\u{1B}\\"

    /// The payload types it takes (`p=`): `title`, `body`, `icon`, `buttons`, `close`, `alive`, `?`.
    public let payloads: Set<String>
    /// The occasions it shows a notification on (`o=`): `always`, `unfocused`, `invisible`.
    public let occasions: Set<String>

    /// The support an answer's OSC body states: `99;i=timerdeck-query:p=?;key=value,value:key=…`;
    /// `nil` for any other OSC string.
    public init?(reply: String) {
        let fields = reply.split(separator: ";", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0] == "99" else { return nil }
        let metadata = Set(fields[1].split(separator: ":").map(String.init))
        guard metadata.contains("i=\(Self.queryID)"), metadata.contains("p=?") else { return nil }
        var values: [String: Set<String>] = [:]
        for pair in fields[2].split(separator: ":") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            values[String(parts[0])] = Set(parts[1].split(separator: ",").map(String.init))
        }
        payloads = values["p"] ?? []
        occasions = values["o"] ?? []
    }
}
