import Synchronization

/// Where a timer or a sleep was made: the file (`#fileID`) and line of the call, which a
/// ``VirtualTimeError`` and ``RunLoop/registrations(inMode:)`` name.
///
/// Sites are kept while a ``VirtualClock`` exists in the process, for the tests that run on one;
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

    init(file: StaticString, line: UInt) {
        self.init(fileID: file.description, line: Int(line))
    }

    /// `Module/File.swift:12`.
    public var description: String { "\(fileID):\(line)" }

    /// How many virtual clocks exist: sites are kept while one does.
    private static let virtualClocks = Atomic<Int>(0)

    /// Whether sites are being kept.
    static var isRecording: Bool { virtualClocks.load(ordering: .relaxed) > 0 }

    /// A virtual clock was made (`true`) or went away (`false`).
    static func virtualClock(exists: Bool) {
        virtualClocks.add(exists ? 1 : -1, ordering: .relaxed)
    }
}
