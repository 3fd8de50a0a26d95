import CTimerLibraries

/// libev 4, loaded at run time (`libev.so.4`, Debian's libev4): `ev_timer`s in one array, started
/// on the default loop and run with `ev_run`. A row says "not installed" where the library is missing.
enum LibevPeer: ThroughputPeer {
    static let name = "libev"
    static let missing = "not installed (libev.so.4; apt-get install libev4)"

    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult {
        var libev = tdb_libev()
        guard tdb_libev_load(&libev) != 0, let loop = libev.default_loop(0) else {
            return ThroughputResult(peer: name, timers: count, note: missing)
        }
        let counters = UnsafeMutablePointer<tdb_fire_counters>.allocate(capacity: 1)
        counters.initialize(to: tdb_fire_counters())
        var spreadSource = DeadlineSpread()
        var run = FireRun(count: count, scatter: scatter)
        let watchers = UnsafeMutablePointer<tdb_ev_timer>.allocate(capacity: count)
        // ev_timer's `after` counts from the loop's cached time, read here.
        libev.now_update(loop)
        let base = monotonicNanoseconds()
        for index in 0..<count {
            let deadline = run.start + spreadSource.next(below: spread)
            tdb_ev_timer_init(watchers + index, Nanoseconds.seconds(deadline - base), counters)
            libev.timer_start(loop, watchers + index)
            run.interleave()
        }
        run.scheduledAll()
        _ = libev.run(loop, 0)
        let after = withExtendedLifetime(run) { ResourceUsage.now() }
        return run.result(
            peer: name, after: after, lastCallback: counters.pointee.last_callback, deadlines: spreadSource,
            fired: counters.pointee.fired)
    }

    static func cancel(count: Int) -> ThroughputResult {
        var libev = tdb_libev()
        guard tdb_libev_load(&libev) != 0, let loop = libev.default_loop(0) else {
            return ThroughputResult(peer: name, timers: count, note: missing)
        }
        let counters = UnsafeMutablePointer<tdb_fire_counters>.allocate(capacity: 1)
        counters.initialize(to: tdb_fire_counters())
        var spreadSource = DeadlineSpread()
        let watchers = UnsafeMutablePointer<tdb_ev_timer>.allocate(capacity: count)
        libev.now_update(loop)
        let start = monotonicNanoseconds()
        for index in 0..<count {
            let after = 3_600 + Nanoseconds.seconds(spreadSource.next(below: 1_000_000_000))
            tdb_ev_timer_init(watchers + index, after, counters)
            libev.timer_start(loop, watchers + index)
        }
        let scheduled = monotonicNanoseconds()
        // libev's way to push a timeout back: the timeout in `repeat`, then `ev_timer_again`; here
        // past every deadline of the run (3,600–3,601 s).
        for index in 0..<count {
            watchers[index].repeat = 3_601
            libev.timer_again(loop, watchers + index)
        }
        let rescheduled = monotonicNanoseconds()
        for index in 0..<count { libev.timer_stop(loop, watchers + index) }
        let cancelled = monotonicNanoseconds()
        return cancelResult(
            count: count, start: start, scheduled: scheduled, rescheduled: rescheduled, cancelled: cancelled)
    }
}
