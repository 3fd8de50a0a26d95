import CTimerLibraries

/// libuv 1, loaded at run time (`libuv.so.1`, Debian's libuv1): `uv_timer_t`s of
/// `uv_handle_size(UV_TIMER)` bytes in one buffer, on the default loop, run with `uv_run`. libuv's
/// timeouts are whole milliseconds, so each deadline is rounded up to one. A row says "not
/// installed" where the library is missing.
enum LibuvPeer: ThroughputPeer {
    static let name = "libuv"
    static let missing = "not installed (libuv.so.1; apt-get install libuv1)"

    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult {
        var libuv = tdb_libuv()
        guard tdb_libuv_load(&libuv) != 0, let loop = libuv.default_loop() else {
            return ThroughputResult(peer: name, timers: count, note: missing)
        }
        let counters = UnsafeMutablePointer<tdb_fire_counters>.allocate(capacity: 1)
        counters.initialize(to: tdb_fire_counters())
        var spreadSource = DeadlineSpread()
        var run = FireRun(count: count, scatter: scatter)
        let size = libuv.handle_size(Int32(TDB_UV_TIMER))
        let handles = UnsafeMutableRawPointer.allocate(byteCount: size * count, alignment: 16)
        // uv_timer_start's timeout counts from the loop's cached time (ms), read here.
        libuv.update_time(loop)
        let now = Int64(libuv.now(loop))
        for index in 0..<count {
            let deadline = run.start + spreadSource.next(below: spread)
            let handle = handles + index * size
            _ = libuv.timer_init(loop, handle)
            tdb_uv_set_data(handle, counters)
            let timeout = max(Nanoseconds.millisecondsRoundedUp(deadline) - now, 0)
            _ = libuv.timer_start(handle, tdb_uv_fired, UInt64(timeout), 0)
            run.interleave()
        }
        run.scheduledAll()
        _ = libuv.run(loop, Int32(TDB_UV_RUN_DEFAULT))
        let after = withExtendedLifetime(run) { ResourceUsage.now() }
        var row = run.result(
            peer: name, after: after, lastCallback: counters.pointee.last_callback, deadlines: spreadSource,
            fired: counters.pointee.fired)
        row.note = "millisecond timeouts"
        return row
    }

    static func cancel(count: Int) -> ThroughputResult {
        var libuv = tdb_libuv()
        guard tdb_libuv_load(&libuv) != 0, let loop = libuv.default_loop() else {
            return ThroughputResult(peer: name, timers: count, note: missing)
        }
        let counters = UnsafeMutablePointer<tdb_fire_counters>.allocate(capacity: 1)
        counters.initialize(to: tdb_fire_counters())
        var spreadSource = DeadlineSpread()
        let size = libuv.handle_size(Int32(TDB_UV_TIMER))
        let handles = UnsafeMutableRawPointer.allocate(byteCount: size * count, alignment: 16)
        libuv.update_time(loop)
        let start = monotonicNanoseconds()
        for index in 0..<count {
            let handle = handles + index * size
            _ = libuv.timer_init(loop, handle)
            tdb_uv_set_data(handle, counters)
            let timeout = 3_600_000 + spreadSource.next(below: 1_000_000_000) / 1_000_000
            _ = libuv.timer_start(handle, tdb_uv_fired, UInt64(timeout), 0)
        }
        let scheduled = monotonicNanoseconds()
        // Starting an active libuv timer again moves it: libuv's way to push a timeout back, here
        // past every deadline of the run (3,600–3,601 s).
        for index in 0..<count { _ = libuv.timer_start(handles + index * size, tdb_uv_fired, 3_601_000, 0) }
        let rescheduled = monotonicNanoseconds()
        for index in 0..<count { _ = libuv.timer_stop(handles + index * size) }
        let cancelled = monotonicNanoseconds()
        return cancelResult(
            count: count, start: start, scheduled: scheduled, rescheduled: rescheduled, cancelled: cancelled)
    }
}
