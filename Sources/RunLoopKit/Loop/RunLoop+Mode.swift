extension RunLoop {
    /// The name of a run loop mode: a set of timers, sources and observers that run together.
    ///
    /// Modes are created on first use and never go away (runloop-reference C-M1). ``common`` is a
    /// pseudo-mode: an item added to it is present in every mode of the run loop's common-modes set
    /// (C-M4, seed M3); a run loop cannot run "in" it (C-M7).
    ///
    /// ```swift
    /// loop.add(timer, forMode: .common)          // fires while tracking too
    /// let inspecting: RunLoop.Mode = "inspecting" // a custom mode
    /// loop.add(timer, forMode: inspecting)
    /// ```
    public struct Mode: Hashable, Sendable, RawRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The mode's name.
        public let rawValue: String

        /// Creates a mode named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a mode from a string literal.
        public init(stringLiteral value: String) {
            self.rawValue = value
        }

        /// The mode a run loop runs in when nothing special is going on (`NSDefaultRunLoopMode`).
        public static let `default`: Mode = "default"

        /// The mode a scroll gesture runs the loop in (`UITrackingRunLoopMode`).
        public static let tracking: Mode = "tracking"

        /// The common-modes pseudo-mode (`NSRunLoopCommonModes`).
        public static let common: Mode = "common"

        public var description: String { rawValue }
    }

    /// Why a call to ``RunLoop/run(mode:until:returnAfterSourceHandled:)`` returned (runloop-reference C-R10).
    ///
    /// Its cases print as their names (`"\(result)"` is `timedOut`), which trace lines rely on.
    public enum RunResult: Int, Sendable {
        /// The mode has nothing in it (or was the common pseudo-mode).
        case finished = 1
        /// ``RunLoop/stop()`` ended this run.
        case stopped = 2
        /// The time limit passed.
        case timedOut = 3
        /// A source was handled and the caller asked to return after one.
        case handledSource = 4
    }

    /// Points in a run loop pass that an ``Observer`` can watch (runloop-reference C-R9).
    public struct Activity: OptionSet, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: UInt32

        public init(rawValue: UInt32) {
            self.rawValue = rawValue
        }

        /// Once, when a run starts (`CFRunLoopRunSpecific`).
        public static let entry = Activity(rawValue: 1 << 0)
        /// At the start of every pass, before due timers are looked at.
        public static let beforeTimers = Activity(rawValue: 1 << 1)
        /// Before signalled sources run.
        public static let beforeSources = Activity(rawValue: 1 << 2)
        /// Just before the loop sleeps (not when polling).
        public static let beforeWaiting = Activity(rawValue: 1 << 5)
        /// Just after the loop wakes (not when polling).
        public static let afterWaiting = Activity(rawValue: 1 << 6)
        /// Once, when a run ends.
        public static let exit = Activity(rawValue: 1 << 7)
        /// Every activity.
        public static let allActivities = Activity(rawValue: 0x0FFF_FFFF)

        public var description: String {
            let names: [(Activity, String)] = [
                (.entry, "entry"), (.beforeTimers, "beforeTimers"), (.beforeSources, "beforeSources"),
                (.beforeWaiting, "beforeWaiting"), (.afterWaiting, "afterWaiting"), (.exit, "exit"),
            ]
            return names.filter { contains($0.0) }.map(\.1).joined(separator: "|")
        }
    }
}
