/// What a mode of a loop holds, for tests and diagnostics: timers, sleeps, timeout sets and sources.
extension RunLoop {
    /// One thing registered in a mode of a loop, as ``registrations(inMode:)`` lists it.
    public struct Registration: Sendable, Equatable, CustomStringConvertible {
        /// What kind of thing it is.
        public enum Kind: Sendable, Hashable, CaseIterable {
            /// A ``Timer`` (a ``DisplayLink``'s timer included).
            case timer
            /// The one-shot timer of a sleeping task: ``Handle/sleep(until:tolerance:inModes:file:line:)``,
            /// a sleep on one of the loop's clocks, or a runtime sleep inside ``VirtualTime``.
            case sleeper
            /// A ``TimeoutSet`` with at least one timeout scheduled.
            case timeoutSet
            /// A ``Source``.
            case source
            /// A ``FileDescriptorSource``.
            case descriptorSource
        }

        /// What kind of thing it is.
        public let kind: Kind
        /// The mode it was listed in.
        public let mode: Mode
        /// When it fires next (timers, sleepers, a timeout set's first timeout); `nil` for sources.
        public let fireDate: Instant?
        /// A timer's metrics name, a sleep's clock, a timeout set's count, a descriptor's number.
        public let name: String?
        /// Where the timer or sleep was made, when known (``CreationSite``).
        public let site: CreationSite?

        /// A memberwise registration.
        package init(kind: Kind, mode: Mode, fireDate: Instant?, name: String?, site: CreationSite?) {
            self.kind = kind
            self.mode = mode
            self.fireDate = fireDate
            self.name = name
            self.site = site
        }

        /// `sleeper "ticks" due at 1.5 s made at Module/File.swift:12 in default`, with the parts known.
        public var description: String {
            var text = "\(kind)"
            if let name { text += " \"\(name)\"" }
            if let fireDate { text += " due at \(fireDate)" }
            if let site { text += " made at \(site)" }
            return text + " in \(mode)"
        }
    }

    /// Everything registered in `mode` between passes, timers and sleepers by fire date (then the
    /// order they were added), then timeout sets and sources. Empty for a mode the loop never made.
    public func registrations(inMode mode: Mode) -> [Registration] {
        guard let state = existingModeState(for: mode) else { return [] }
        var timed: [(entry: TimerQueue.Entry, registration: Registration)] = []
        state.timers.forEachEntry { entry in
            let timer = entry.timer.takeUnretainedValue()
            let registration = Registration(
                kind: timer.kind, mode: mode, fireDate: Instant(nanoseconds: entry.deadline),
                name: timer.metricsName, site: timer.creationSite)
            timed.append((entry, registration))
        }
        timed.sort { $0.entry.precedes($1.entry) }
        var result = timed.map(\.registration)
        state.forEachTimeoutSet { set in
            guard let next = set.nextDeadline() else { return }
            result.append(
                Registration(
                    kind: .timeoutSet, mode: mode, fireDate: Instant(nanoseconds: next),
                    name: "\(set.count) timeouts", site: nil))
        }
        for source in state.sources where source.isValid {
            result.append(Registration(kind: .source, mode: mode, fireDate: nil, name: nil, site: nil))
        }
        for descriptor in state.descriptorSources.keys.sorted() {
            result.append(
                Registration(
                    kind: .descriptorSource, mode: mode, fireDate: nil, name: "descriptor \(descriptor)", site: nil))
        }
        return result
    }

    /// How many things of `kind` are registered in `mode` (what ``registrations(inMode:)`` would list).
    public func registrationCount(of kind: Registration.Kind, inMode mode: Mode) -> Int {
        guard let state = existingModeState(for: mode) else { return 0 }
        switch kind {
        case .timer, .sleeper:
            var count = 0
            state.timers.forEachEntry { entry in
                if entry.timer._withUnsafeGuaranteedRef({ $0.kind }) == kind { count += 1 }
            }
            return count
        case .timeoutSet:
            var count = 0
            state.forEachTimeoutSet { if !$0.isEmpty { count += 1 } }
            return count
        case .source: return state.sources.count { $0.isValid }
        case .descriptorSource: return state.descriptorSources.count
        }
    }
}
