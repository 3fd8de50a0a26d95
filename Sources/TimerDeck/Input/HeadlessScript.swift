import KeptTimers
import RunLoopKit
import TerminalUI

/// A headless session script: one command per line (`#` starts a comment; LF or CRLF line ends).
///
/// ```
/// size 80x24
/// key enter
/// wait 3s
/// snapshot
/// quit
/// ```
package struct HeadlessScript: Equatable, Sendable {
    /// One line of a script.
    package enum Step: Equatable, Sendable {
        /// `size WxH`: resize the in-memory screen.
        case size(width: Int, height: Int)
        /// `key NAME`: a character, or enter, tab, shift-tab, up, down, pgup, pgdn, home, end, esc.
        case key(Key)
        /// `wait DURATION`: let the virtual clock run (`250ms`, `3s`, `5m`), at most ``HeadlessScript/longestWait``.
        case wait(Duration)
        /// `wall YYYY-MM-DDTHH:MM[:SS]Z`: set the wall clock to this UTC time, as a change of the
        /// system clock does (uptime goes on; deadlines on the wall clock, an alarm's, follow it).
        case wall(Instant)
        /// `snapshot`: print `--- snapshot t=SECONDS ---` and the screen as plain text.
        case snapshot
        /// `quit`: end the session as the `q` key would.
        case quit
    }

    /// The steps, in order.
    package let steps: [Step]

    /// The sizes `size` accepts, for width and height alike.
    static let sideRange = 1...1_000
    /// The waits `wait` accepts: a single wait is capped, so a typo such as `wait 999999h` is an
    /// error instead of hours of silence (the uploads sample on the virtual clock all along).
    static let waitRange: ClosedRange<Duration> = .milliseconds(1) ... .seconds(4 * 3_600)

    /// A script line that cannot be run; the message names the line and says what is accepted.
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What is wrong, with the line number.
        package let message: String
        package var description: String { message }
    }

    /// Parses script text; `source` names it in error messages.
    package init(parsing text: String, source: String = "script") throws(ParseError) {
        var steps: [Step] = []
        // `\r\n` is one Character in Swift, and a newline: CRLF scripts split like LF ones.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.prefix { $0 != "#" }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let command = words.first else { continue }
            let place = "\(source):\(index + 1)"
            let argument = words.dropFirst().joined(separator: " ")
            steps.append(try Self.step(command, argument, at: place))
        }
        self.steps = steps
    }

    private static func step(_ command: Substring, _ argument: String, at place: String) throws(ParseError) -> Step {
        switch command {
        case "size":
            return try size(argument, at: place)
        case "key":
            guard !argument.isEmpty else {
                throw ParseError(message: "\(place): 'key' needs a key name, e.g. key enter or key q")
            }
            guard let key = Key.scriptNamed(argument) else {
                let names = Key.scriptNames.map(\.key).joined(separator: ", ")
                throw ParseError(
                    message:
                        "\(place): unknown key \(UserText.quote(argument)) (use a single character or one of: \(names))"
                )
            }
            return .key(key)
        case "wait":
            guard let duration = DurationText.parse(argument), waitRange.contains(duration) else {
                throw ParseError(
                    message:
                        "\(place): wait \(UserText.quote(argument)) — expected a duration \(DurationText.range(waitRange)) such as 250ms, 3s or 5m; a single wait is at most \(DurationText.setting(waitRange.upperBound)), write several for longer"
                )
            }
            return .wait(duration)
        case "wall":
            guard argument.hasSuffix("Z"), let time = LocalDateTime(text: String(argument.dropLast())) else {
                throw ParseError(
                    message: "\(place): wall \(UserText.quote(argument)) — expected a UTC time YYYY-MM-DDTHH:MMZ or "
                        + "YYYY-MM-DDTHH:MM:SSZ, e.g. wall 2026-03-08T06:00Z")
            }
            return .wall(time.instant { _ in .zero })
        case "snapshot", "quit":
            guard argument.isEmpty else {
                throw ParseError(
                    message: "\(place): '\(command)' takes no argument (found \(UserText.quote(argument)))")
            }
            return command == "quit" ? .quit : .snapshot
        default:
            throw ParseError(
                message:
                    "\(place): unknown command \(UserText.quote(command)) (known: size, key, wait, wall, snapshot, quit)"
            )
        }
    }

    private static func size(_ argument: String, at place: String) throws(ParseError) -> Step {
        let accepted = "size WxH with each side \(sideRange.lowerBound)…\(sideRange.upperBound), e.g. size 80x24"
        let parts = argument.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            throw ParseError(message: "\(place): size \(UserText.quote(argument)) — expected \(accepted)")
        }
        // Digits only, so `Int` fails only on a number too large for it: above the maximum either way.
        guard let width = Int(parts[0]), let height = Int(parts[1]),
            width <= sideRange.upperBound, height <= sideRange.upperBound
        else {
            throw ParseError(
                message:
                    "\(place): size \(UserText.quote(argument)) is larger than the maximum, \(sideRange.upperBound)x\(sideRange.upperBound)"
            )
        }
        guard width >= sideRange.lowerBound, height >= sideRange.lowerBound else {
            throw ParseError(
                message: "\(place): size \(UserText.quote(argument)) has a side of 0 (accepted: \(accepted))")
        }
        return .size(width: width, height: height)
    }
}
