internal import CLinuxEvents
import Glibc

/// The per-thread run loop storage behind ``RunLoop/current``: each thread's loop, retained.
enum CurrentRunLoop {
    private static let loops = ThreadLocal<RunLoop>()

    static func get() -> RunLoop {
        if let loop = loops.value { return loop }
        let loop: RunLoop
        do {
            // C-R13: the main thread's current loop is the main loop.
            loop = cle_is_main_thread() != 0 ? RunLoop.main : try RunLoop.make()
        } catch {
            fatalError(
                "RunLoop.current: cannot create this thread's run loop: \(error); free descriptors or raise the limit (ulimit -n)"
            )
        }
        loops.set(loop)
        return loop
    }

    static func with<Result>(_ loop: RunLoop, _ body: () throws -> Result) rethrows -> Result {
        try loops.with(loop, body)
    }
}
