import RunLoopKit

extension RunLoop {
    /// Foundation's `RunLoop.Mode`: a mode's name, with CoreFoundation's names for the standard modes.
    ///
    /// ``default``, ``common`` and ``tracking`` are RunLoopKit's `default`, `common` and `tracking`
    /// modes; any other name is a custom mode of that name.
    ///
    /// ```swift
    /// RunLoop.current.add(timer, forMode: .common)
    /// let modal = RunLoop.Mode("modal")
    /// RunLoop.current.add(timer, forMode: modal)
    /// ```
    public struct Mode: Hashable, Sendable, RawRepresentable {
        /// The mode's name.
        public let rawValue: String

        /// Creates a mode named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a mode named `rawValue`.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// The default mode (`kCFRunLoopDefaultMode`).
        public static let `default` = Mode("kCFRunLoopDefaultMode")

        /// The common-modes pseudo-mode (`kCFRunLoopCommonModes`).
        public static let common = Mode("kCFRunLoopCommonModes")

        /// UIKit's scroll-tracking mode (`UITrackingRunLoopMode`).
        public static let tracking = Mode("UITrackingRunLoopMode")

        /// The same mode in RunLoopKit.
        public var base: RunLoopKit.RunLoop.Mode {
            switch self {
            case .default: .default
            case .common: .common
            case .tracking: .tracking
            default: RunLoopKit.RunLoop.Mode(rawValue: rawValue)
            }
        }

        /// The mode that is `base` in RunLoopKit.
        public init(_ base: RunLoopKit.RunLoop.Mode) {
            switch base {
            case .default: self = .default
            case .common: self = .common
            case .tracking: self = .tracking
            default: self.init(base.rawValue)
            }
        }
    }
}
