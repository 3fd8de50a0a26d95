internal import CLinuxEvents
import Glibc
internal import TimeUnits

/// Puts a run loop to sleep until its next deadline or input, and reports which descriptors are ready.
///
/// On the system clock it sleeps in the kernel: one epoll set per mode (the loop's eventfd, its
/// timerfd and the mode's descriptor sources, C-T10). A wait of up to a millisecond is one
/// `epoll_pwait2` with a nanosecond timeout, the loop's thread's timer slack set to 1 ns: one system
/// call per wake-up where timers are dense. A longer wait ends by a `CLOCK_MONOTONIC` timerfd armed
/// at the absolute deadline (re-armed only when the deadline changes), because the kernel lets an
/// epoll timeout end late by a thousandth of its length (16.7 µs for a 60 Hz frame) and fires a
/// timerfd without slack; so does every wait where the kernel lacks `epoll_pwait2` (before Linux
/// 5.11). There is no polling tick: with no deadline the loop sleeps until input or a wake-up.
///
/// On a ``VirtualClock`` it lets outside work finish, checks input without blocking and then jumps
/// the clock to the deadline after ``autojumpDelay``; it blocks for real only when there is no
/// deadline or it never jumps. A mode with no descriptor and no main queue is checked only when
/// a wake-up was written since the loop last read one, so a jump from deadline to deadline
/// costs no system call.
final class Waiter {
    private let shared: LoopShared
    private let clock: TimeSource
    /// Whether ``clock`` is a ``VirtualClock`` or a controlled clock over one.
    private let isVirtual: Bool
    private let timerDescriptor: Int32
    /// The deadline the timerfd is armed for, `Int64.max` when disarmed. It may be earlier than the
    /// wait's own deadline: the timerfd is re-armed only when a deadline moves earlier than it
    /// (``arm(_:now:)``), and an early expiry is absorbed by the wait (``waitInKernel(_:until:ready:)``).
    private var armedDeadline = Int64.max
    /// `timerfd_settime` calls made, arming or disarming (the loop's `timerfd_settime` metric).
    private(set) var timerSettings = 0
    /// Expiries of the timerfd before the wait's deadline, absorbed by re-arming it without a pass
    /// (the loop's `early_timer_expiries` metric).
    private(set) var earlyTimerExpiries = 0
    /// Whether the timerfd expired and was left unread: the next `timerfd_settime` (arming or
    /// disarming) clears it, so reading it would be a system call for nothing.
    private var timerExpired = false
    /// Whether waits end by `epoll_pwait2`'s timeout; cleared for good when the kernel lacks it.
    private var waitsWithTimeout = true
    /// Whether this loop's thread already has the 1 ns timer slack (``waitInKernel(_:until:ready:)``).
    private var hasPreciseSlack = false
    /// The longest wait `epoll_pwait2`'s timeout ends: the kernel's slack for it, a thousandth of
    /// the timeout, stays within 1 µs.
    static let longestTimeoutWait: Int64 = Nanoseconds.perMillisecond
    /// When the kernel was last asked for input (uptime ns), for passes whose timers are already due.
    private var lastInputCheck = Int64.min
    /// While timers are due pass after pass, the kernel is asked for input at most this often (1 ms).
    static let inputCheckInterval: Int64 = Nanoseconds.perMillisecond
    private var events = [epoll_event](repeating: epoll_event(), count: 64)
    private var epollDescriptors: [Int32] = []
    /// libdispatch's main-queue eventfd on ``RunLoop/main`` (-1 elsewhere), watched in common modes only.
    var mainQueueDescriptor: Int32 = -1
    /// Set when a wait saw the main queue's eventfd readable; cleared when the queue is drained.
    var mainQueueSignalled = false
    // The flags below are set and read on the loop's thread only, a few times a pass, with no
    // access spanning another: their dynamic exclusivity checks are off.
    /// Whether the last ``wait(in:until:poll:ready:)`` read a wake-up from another thread.
    @exclusivity(unchecked) private(set) var sawWakeUp = false
    /// Whether the last wait ended only because another thread interrupted it to re-arm it
    /// (``LoopShared/interruptWait()``): no wake-up for work, no input, no timer, no main queue.
    @exclusivity(unchecked) private(set) var wokeOnlyToRearm = false
    /// Whether the last wait saw anything but wake-ups: the timer, the main queue or a descriptor source.
    @exclusivity(unchecked) private var sawEvent = false
    /// Whether the last collection of events saw the timerfd expire, and anything else: a
    /// wake-up, the main queue or a descriptor source.
    @exclusivity(unchecked) private var sawTimerExpire = false
    @exclusivity(unchecked) private var sawMoreThanTimer = false
    /// Whether a wake-up read during the last wait asked for a pass.
    @exclusivity(unchecked) private var sawWakeUpForWork = false
    /// How long a wait on a ``VirtualClock`` waits for input in real time before it jumps to its
    /// deadline: zero jumps at once, `nil` never jumps (`RunLoop.autojumpDelay`).
    var autojumpDelay: Duration? = .zero

    init(shared: LoopShared, clock: TimeSource) throws(SystemCallError) {
        self.shared = shared
        self.clock = clock
        isVirtual = clock.virtualClock != nil
        timerDescriptor = try SystemCall.check("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        }
    }

    deinit {
        for descriptor in epollDescriptors { close(descriptor) }
        close(timerDescriptor)
    }

    /// Starts watching `descriptor` in `state`'s epoll set, creating the set if needed. Throws when
    /// epoll refuses the descriptor (`EPERM` for a regular file or a directory, `EBADF` for a closed one).
    func register(_ descriptor: Int32, in state: ModeState) throws(SystemCallError) {
        try add(descriptor, to: try epollDescriptor(for: state))
    }

    /// Adds the main queue's eventfd to `state`'s epoll set, if the set exists (it is added when the
    /// set is created otherwise).
    func watchMainQueue(in state: ModeState) {
        guard state.epollDescriptor >= 0 else { return }
        do {
            try add(mainQueueDescriptor, to: state.epollDescriptor)
        } catch {
            fatalError("RunLoop: watching the main queue in mode \(state.mode): \(error)")
        }
    }

    /// Stops watching `descriptor` in `state`'s epoll set.
    func unregister(_ descriptor: Int32, in state: ModeState) {
        guard state.epollDescriptor >= 0 else { return }
        var unused = epoll_event()
        do {
            _ = try SystemCall.check("epoll_ctl") {
                epoll_ctl(state.epollDescriptor, EPOLL_CTL_DEL, descriptor, &unused)
            }
        } catch  where error.errno == EBADF || error.errno == ENOENT {
            // The owner closed the descriptor before invalidating its source: the kernel already dropped it.
        } catch {
            fatalError("RunLoop: unwatching descriptor \(descriptor) in mode \(state.mode): \(error)")
        }
    }

    /// Waits in `state` until `deadline` (uptime ns; `nil` = no deadline) or input, or only checks
    /// input when `poll` is set. Appends the ready descriptor sources' descriptors to `ready`.
    func wait(in state: ModeState, until deadline: Int64?, poll: Bool, ready: inout [Int32]) {
        sawWakeUp = false
        sawWakeUpForWork = false
        sawEvent = false
        // On a virtual clock a mode without descriptors or the main queue has only the loop's
        // wake-ups in its set.
        let onlyWakeUps = isVirtual && state.descriptorSources.isEmpty && !state.watchesMainQueue
        if poll && onlyWakeUps {
            // The pass has just read the wake-ups (settleOutsideWork): a later one is read at the
            // next pass. Polling them would be a system call for nothing.
            wokeOnlyToRearm = false
            return
        }
        let epoll: Int32
        do {
            epoll = try epollDescriptor(for: state)
        } catch {
            fatalError(
                "RunLoop: cannot wait in mode \(state.mode): \(error); free descriptors or raise the limit (ulimit -n)")
        }
        // Only a strictCF loop is ever interrupted without a wake-up for work (RunLoop.Handle.rearm).
        defer { wokeOnlyToRearm = sawWakeUp && !sawWakeUpForWork && !sawEvent && shared.isStrictCF }
        if poll {
            collect(epoll, timeout: 0, into: &ready)
            return
        }
        switch clock {
        case .system:
            waitInKernel(epoll, until: deadline, ready: &ready)
        case .virtual(let virtualClock):
            waitVirtually(epoll, on: virtualClock, until: deadline, onlyWakeUps: onlyWakeUps, ready: &ready)
        case .controlled(let control):
            // The deadline is on the controlled clock; the wait is on its base (none while paused).
            let baseDeadline = deadline.flatMap { $0 == Int64.max ? nil : control.baseDeadline(forUptime: $0) }
            if let virtualClock = control.base.virtualClock {
                waitVirtually(epoll, on: virtualClock, until: baseDeadline, onlyWakeUps: onlyWakeUps, ready: &ready)
            } else {
                waitInKernel(epoll, until: baseDeadline, ready: &ready)
            }
        }
    }

    /// Lets outside work finish, polls, then jumps `virtualClock` to `deadline`, or blocks for
    /// input when there is none.
    ///
    /// When the set holds `onlyWakeUps`, the poll is made only if a wake-up was written since the
    /// eventfd was last read (``LoopShared/mayHaveWakeUps``): a jump from deadline to deadline
    /// then costs no system call.
    private func waitVirtually(
        _ epoll: Int32, on virtualClock: VirtualClock, until deadline: Int64?, onlyWakeUps: Bool,
        ready: inout [Int32]
    ) {
        settleOutsideWork(clearingWakeUps: false)
        if !onlyWakeUps || shared.mayHaveWakeUps {
            guard !collect(epoll, timeout: 0, into: &ready) else { return }
        }
        guard let deadline, deadline != Int64.max else {
            collect(epoll, timeout: -1, into: &ready)
            return
        }
        guard let delay = autojumpDelay else {
            collect(epoll, timeout: -1, into: &ready)
            return
        }
        // Input that comes within the delay of real time keeps virtual time where it is.
        if delay > .zero, waitForInput(epoll, forReal: delay, into: &ready) { return }
        virtualClock.advance(to: Instant(nanoseconds: deadline))
    }

    /// Waits up to `duration` of real time for input or a wake-up in `state`'s epoll set; returns
    /// whether any came. Readable descriptors stay readable for the next pass; wake-ups are read.
    func awaitInput(in state: ModeState, forReal duration: Duration) -> Bool {
        let epoll: Int32
        do {
            epoll = try epollDescriptor(for: state)
        } catch {
            fatalError(
                "RunLoop: cannot wait in mode \(state.mode): \(error); free descriptors or raise the limit (ulimit -n)")
        }
        sawWakeUp = false
        sawEvent = false
        var ready: [Int32] = []
        return waitForInput(epoll, forReal: duration, into: &ready)
    }

    /// Waits up to `duration` of real time for input or a wake-up, after a poll found none;
    /// returns whether any came.
    private func waitForInput(_ epoll: Int32, forReal duration: Duration, into ready: inout [Int32]) -> Bool {
        let length = max(duration.nanoseconds, 0)
        if collect(epoll, until: SystemClock.now(.uptime).nanoseconds &+ length, into: &ready) {
            return sawWakeUp || sawEvent || !ready.isEmpty
        }
        return collect(epoll, timeout: Int32(clamping: (length + 999_999) / 1_000_000), into: &ready)
    }

    /// On a ``VirtualClock`` outside work (``RunLoop/Handle/beginExternalWork()``) takes no
    /// virtual time: this waits for real until none is outstanding. Work posts its results, then
    /// wakes the loop, then counts itself done, so afterwards everything it posted is in the inbox
    /// and its wake-ups are written. At the start of a pass (`clearingWakeUps`), where the inbox is
    /// drained next, those wake-ups are cleared too: whether the work ended before the pass or
    /// during it then leaves no trace in what the loop does, and a headless run repeats exactly.
    func settleOutsideWork(clearingWakeUps: Bool) {
        guard isVirtual else { return }
        while shared.externalWork.load(ordering: .acquiring) > 0 {
            var pause = timespec(tv_sec: 0, tv_nsec: 50_000)
            nanosleep(&pause, nil)
        }
        if clearingWakeUps { shared.drainWakeUps() }
    }

    private func waitInKernel(_ epoll: Int32, until deadline: Int64?, ready: inout [Int32]) {
        guard let deadline, deadline != Int64.max else {
            // An earlier deadline the timerfd is still armed for ends the wait early, once.
            while true {
                collect(epoll, timeout: -1, into: &ready)
                guard absorbedEarlyExpiry(before: Int64.max) else { return }
                disarm()
            }
        }
        let now = SystemClock.now(.uptime).nanoseconds
        if deadline <= now {
            // Timers are already due: a flood of them costs no system call a pass, and input waits
            // at most a millisecond for its turn.
            if lastInputCheck <= now - Self.inputCheckInterval {
                lastInputCheck = now
                collect(epoll, timeout: 0, into: &ready)
            }
            return
        }
        lastInputCheck = now
        if waitsWithTimeout && deadline - now <= Self.longestTimeoutWait {
            if !hasPreciseSlack {
                // The loop runs on one thread; the slack is that thread's (prctl), set once.
                hasPreciseSlack = cle_set_timer_slack(1) == 0
            }
            // The timerfd stays as it is: armed later, it cannot end this wait; armed earlier, its
            // expiry is absorbed and it is disarmed (it stays readable until then).
            while collect(epoll, until: deadline, into: &ready) {
                guard absorbedEarlyExpiry(before: deadline) else { return }
                disarm()
            }
            waitsWithTimeout = false
        }
        repeat {
            arm(deadline, now: now)
            collect(epoll, timeout: -1, into: &ready)
        } while absorbedEarlyExpiry(before: deadline)
    }

    /// Whether the wait that just ended saw only the timerfd expire, armed for a deadline earlier
    /// than this wait's (one that went away: a timer cancelled or moved later). Such an expiry is
    /// no wake-up of the loop: the wait goes on, with no pass and no observer, and the timerfd is
    /// armed for the wait's own deadline. It costs what the re-arm it spared would have: a system
    /// call, and one kernel wake-up.
    private func absorbedEarlyExpiry(before deadline: Int64) -> Bool {
        guard sawTimerExpire, !sawMoreThanTimer, SystemClock.now(.uptime).nanoseconds < deadline else { return false }
        earlyTimerExpiries += 1
        sawEvent = false
        return true
    }

    /// Waits on `epoll` with `epoll_pwait2` until the absolute uptime `deadline`, or input. Returns
    /// `false` (having waited for nothing) when the kernel has no `epoll_pwait2`.
    private func collect(_ epoll: Int32, until deadline: Int64, into ready: inout [Int32]) -> Bool {
        var count: Int32 = 0
        do {
            // After EINTR the remaining time is taken again from the clock.
            count = try SystemCall.check("epoll_pwait2") {
                let remaining = max(deadline - SystemClock.now(.uptime).nanoseconds, 0)
                var timeout = Nanoseconds.timespec(remaining)
                return events.withUnsafeMutableBufferPointer { buffer in
                    epoll_pwait2(epoll, buffer.baseAddress, Int32(buffer.count), &timeout, nil)
                }
            }
        } catch  where error.errno == ENOSYS {
            return false
        } catch {
            fatalError("RunLoop: waiting on epoll set \(epoll): \(error)")
        }
        take(count, into: &ready)
        return true
    }

    /// Returns whether anything at all was ready (input, a wake-up or the timer).
    @discardableResult
    private func collect(_ epoll: Int32, timeout: Int32, into ready: inout [Int32]) -> Bool {
        var count: Int32 = 0
        // The timeout is 0 or infinite (deadlines are on the timerfd), so retrying after EINTR is exact.
        SystemCall.mustSucceed("waiting on epoll set \(epoll)") {
            count = try SystemCall.check("epoll_wait") {
                events.withUnsafeMutableBufferPointer { buffer in
                    epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), timeout)
                }
            }
        }
        guard count > 0 else { return false }
        take(count, into: &ready)
        return true
    }

    /// Handles the first `count` events of the last wait: wake-ups, the main queue, the timerfd,
    /// and the ready descriptor sources, whose descriptors go to `ready`.
    private func take(_ count: Int32, into ready: inout [Int32]) {
        sawTimerExpire = false
        sawMoreThanTimer = false
        for index in 0..<Int(count) {
            let descriptor = events[index].data.fd
            if descriptor == timerDescriptor { sawTimerExpire = true } else { sawMoreThanTimer = true }
            if descriptor == shared.wakeDescriptor {
                sawWakeUp = true
                if shared.drainWakeUps(readable: true) { sawWakeUpForWork = true }
                continue
            }
            sawEvent = true
            if descriptor == mainQueueDescriptor {
                // libdispatch only writes the eventfd; the run loop reads it, as CF does.
                var count: UInt64 = 0
                SystemCall.mustSucceed("reading the main queue's eventfd") {
                    _ = try SystemCall.nonBlocking("read") { read(mainQueueDescriptor, &count, 8) }
                }
                mainQueueSignalled = true
            } else if descriptor == timerDescriptor {
                // Left unread: the next arm or disarm resets it (its count is never needed).
                timerExpired = true
                armedDeadline = Int64.max
            } else {
                ready.append(descriptor)
            }
        }
    }

    /// Arms the timerfd for `deadline` unless it is armed for it or for an earlier deadline still
    /// ahead of `now`: a deadline that moves later (the earliest timer cancelled or moved later)
    /// costs no system call. The earlier expiry, if it comes first, is absorbed by the wait.
    private func arm(_ deadline: Int64, now: Int64) {
        guard deadline < armedDeadline || timerExpired || armedDeadline <= now else { return }
        var spec = itimerspec()
        spec.it_value = Nanoseconds.timespec(deadline)
        SystemCall.mustSucceed("arming the loop's timerfd for \(deadline) ns") {
            _ = try SystemCall.check("timerfd_settime") {
                timerfd_settime(timerDescriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil)
            }
        }
        timerSettings += 1
        armedDeadline = deadline
        timerExpired = false
    }

    private func disarm() {
        guard armedDeadline != Int64.max || timerExpired else { return }
        var spec = itimerspec()
        SystemCall.mustSucceed("disarming the loop's timerfd") {
            _ = try SystemCall.check("timerfd_settime") { timerfd_settime(timerDescriptor, 0, &spec, nil) }
        }
        timerSettings += 1
        armedDeadline = Int64.max
        timerExpired = false
    }

    /// `state`'s epoll set, created on first use with the mode's descriptor sources in it.
    func epollDescriptor(for state: ModeState) throws(SystemCallError) -> Int32 {
        if state.epollDescriptor >= 0 { return state.epollDescriptor }
        let epoll = try makeEpollSet()
        adopt(epoll, for: state)
        for descriptor in state.descriptorSources.keys { try add(descriptor, to: epoll) }
        if state.watchesMainQueue { try add(mainQueueDescriptor, to: epoll) }
        return epoll
    }

    /// A new epoll set watching the loop's eventfd and timerfd; ``adopt(_:for:)`` hands it to a mode.
    func makeEpollSet() throws(SystemCallError) -> Int32 {
        let epoll = try SystemCall.check("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do {
            try add(shared.wakeDescriptor, to: epoll)
            try add(timerDescriptor, to: epoll)
        } catch {
            close(epoll)
            throw error
        }
        return epoll
    }

    /// Makes `epoll` (from ``makeEpollSet()``) the epoll set of `state`; the waiter closes it in `deinit`.
    func adopt(_ epoll: Int32, for state: ModeState) {
        epollDescriptors.append(epoll)
        state.epollDescriptor = epoll
    }

    private func add(_ descriptor: Int32, to epoll: Int32) throws(SystemCallError) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = descriptor
        _ = try SystemCall.check("epoll_ctl") { epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) }
    }
}
