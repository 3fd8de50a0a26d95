/// A headless session script: one command per line (`#` starts a comment).
///
/// ```
/// size 80x24
/// key enter
/// wait 3s
/// snapshot
/// quit
/// ```
public struct HeadlessScript: Equatable, Sendable {
    /// One line of a script.
    public enum Step: Equatable, Sendable {
        /// `size WxH`: resize the in-memory screen.
        case size(width: Int, height: Int)
        /// `key NAME`: a character, or enter, tab, shift-tab, up, down, pgup, pgdn, home, end, esc.
        case key(String)
        /// `wait DURATION`: let the virtual clock run (`250ms`, `3s`, `5m`).
        case wait(Duration)
        /// `snapshot`: print `--- snapshot t=SECONDS ---` and the screen as plain text.
        case snapshot
        /// `quit`: end the session as the `q` key would.
        case quit
    }

    /// The steps, in order.
    public let steps: [Step]

    /// A script line that cannot be run; the message names the line and says what is accepted.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What is wrong, with the line number.
        public let message: String
        public var description: String { message }
    }

    /// Parses script text; `source` names it in error messages.
    public init(parsing text: String, source: String = "script") throws(ParseError) {
        var steps: [Step] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let command = words.first else { continue }
            let place = "\(source):\(index + 1)"
            let argument = words.dropFirst().joined(separator: " ")
            switch command {
            case "size":
                let parts = argument.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, (1...1_000).contains(parts[0]), (1...1_000).contains(parts[1]) else {
                    throw ParseError(message: "\(place): 'size \(argument)' — expected size WxH, e.g. size 80x24")
                }
                steps.append(.size(width: parts[0], height: parts[1]))
            case "key":
                guard !argument.isEmpty else {
                    throw ParseError(message: "\(place): 'key' needs a key name, e.g. key enter or key q")
                }
                steps.append(.key(argument))
            case "wait":
                guard let duration = DurationText.parse(argument), duration > .zero else {
                    throw ParseError(message: "\(place): 'wait \(argument)' — expected a duration such as 250ms, 3s or 5m")
                }
                steps.append(.wait(duration))
            case "snapshot":
                steps.append(.snapshot)
            case "quit":
                steps.append(.quit)
            default:
                throw ParseError(message: "\(place): unknown command '\(command)' (known: size, key, wait, snapshot, quit)")
            }
        }
        self.steps = steps
    }
}
