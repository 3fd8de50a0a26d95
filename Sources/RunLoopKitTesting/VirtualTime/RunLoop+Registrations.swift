import RunLoopKit

/// What a mode of a loop holds, for tests and diagnostics: timers, sleeps, timeout sets and sources.
extension RunLoop {
    /// One thing registered in a mode of a loop, as `registrations(inMode:)` lists it.
    public struct Registration: Sendable, Equatable, CustomStringConvertible {
        /// What kind of thing it is.
        public enum Kind: Sendable, Hashable, CaseIterable {
            /// A `Timer` (a `DisplayLink`'s timer included).
            case timer
            /// The one-shot timer of a sleeping task: `RunLoop.Handle`'s `sleep(until:tolerance:inModes:file:line:)`,
            /// a sleep on one of the loop's clocks, or a runtime sleep inside ``VirtualTime``.
            case sleeper
            /// A `TimeoutSet` with at least one timeout scheduled.
            case timeoutSet
            /// A `RunLoop.Source`.
            case source
            /// A `RunLoop.FileDescriptorSource`.
            case descriptorSource
        }

        /// What kind of thing it is.
        public let kind: Kind
        /// The mode it was listed in.
        public let mode: Mode
        /// When it fires next (timers, sleepers, a timeout set's first timeout); `nil` for sources.
        public let fireDate: Instant?
        /// A timer's metrics name, a runtime sleep's clock (`ContinuousClock sleep (the runtime
        /// gives no call site)`), a timeout set's count, a descriptor's number.
        public let name: String?
        /// Where the timer or sleep was made, when known (``CreationSite``). A runtime sleep inside
        /// ``VirtualTime`` (`Task.sleep`, the runtime clocks' `sleep`) has none: the runtime does
        /// not say where it was called, and its name says so.
        public let site: CreationSite?
        /// Whether it is a background timer (`Timer`'s `isBackground`), which the idle, deadlock
        /// and leak checks of virtual time ignore.
        public let isBackground: Bool

        /// A memberwise registration.
        init(
            kind: Kind, mode: Mode, fireDate: Instant?, name: String?, site: CreationSite?, isBackground: Bool = false
        ) {
            self.kind = kind
            self.mode = mode
            self.fireDate = fireDate
            self.name = name
            self.site = site
            self.isBackground = isBackground
        }

        /// `sleeper "ticks" due at 1.5 s made at Module/File.swift:12 in default`, with the parts
        /// known; a background timer's starts with `background timer`.
        public var description: String {
            var text = isBackground ? "background \(kind)" : "\(kind)"
            if let name { text += " \"\(name)\"" }
            if let fireDate { text += " due at \(fireDate)" }
            if let site { text += " made at \(site)" }
            return text + " in \(mode)"
        }
    }

    /// Everything registered in `mode` between passes, timers and sleepers by fire date (then the
    /// order they were added), then timeout sets and sources. Empty for a mode the loop never made.
    public func registrations(inMode mode: Mode) -> [Registration] {
        var result = timersInFiringOrder(inMode: mode).map { timer, fireDate in
            Registration(
                kind: timer.isSleeper ? .sleeper : .timer, mode: mode, fireDate: fireDate, name: timer.metricsName,
                site: CreationSite(of: timer), isBackground: timer.isBackground && !timer.isSleeper)
        }
        for set in scheduledTimeoutSets(inMode: mode) {
            result.append(
                Registration(
                    kind: .timeoutSet, mode: mode, fireDate: set.nextDeadline, name: "\(set.count) timeouts", site: nil)
            )
        }
        for _ in 0..<sourceCount(inMode: mode) {
            result.append(Registration(kind: .source, mode: mode, fireDate: nil, name: nil, site: nil))
        }
        for descriptor in watchedDescriptors(inMode: mode) {
            result.append(
                Registration(
                    kind: .descriptorSource, mode: mode, fireDate: nil, name: "descriptor \(descriptor)", site: nil))
        }
        return result
    }

    /// How many things of `kind` are registered in `mode` (what ``registrations(inMode:)`` would list).
    public func registrationCount(of kind: Registration.Kind, inMode mode: Mode) -> Int {
        switch kind {
        case .timer: timerCount(inMode: mode, sleepers: false)
        case .sleeper: timerCount(inMode: mode, sleepers: true)
        case .timeoutSet: scheduledTimeoutSets(inMode: mode).count
        case .source: sourceCount(inMode: mode)
        case .descriptorSource: watchedDescriptors(inMode: mode).count
        }
    }

    /// Whether `mode` holds something a test may wait for: a sleeper, a scheduled timeout or a
    /// timer that is not a background timer (`Timer`'s `isBackground`).
    func hasForegroundSchedule(inMode mode: Mode) -> Bool {
        timerCount(inMode: mode, sleepers: true) > 0 || !scheduledTimeoutSets(inMode: mode).isEmpty
            || timerCount(inMode: mode, sleepers: false) > backgroundTimerCount(inMode: mode)
    }

    /// Everything registered in every mode (a common item once per mode it is in).
    var allRegistrations: [Registration] {
        allModes.flatMap { registrations(inMode: $0) }
    }
}
