import RunLoopKit

/// Where a timer or a sleep was made: the file (`#fileID`) and line of the call, which a
/// ``VirtualTimeError`` and `registrations(inMode:)` name.
///
/// Sites are kept while a `VirtualClock` exists in the process, for the tests that run on one;
/// a program on the system clock keeps none, and its timers stay as small as they were.
public struct CreationSite: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` names it: `Module/File.swift`.
    public let fileID: String
    /// The line of the call.
    public let line: Int

    /// A site made of a file and a line.
    public init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }

    /// Where `timer` was made, if it was made while a `VirtualClock` existed.
    init?(of timer: Timer) {
        guard let (file, line) = timer.creationSite else { return nil }
        self.init(fileID: file.description, line: Int(line))
    }

    /// `Module/File.swift:12`.
    public var description: String { "\(fileID):\(line)" }
}
