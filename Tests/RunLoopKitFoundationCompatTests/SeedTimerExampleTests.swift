import RunLoopKitFoundationCompat
import Testing

/// The seeds' NSTimer examples (seeds 000, 001, 003, 004), written in Swift with Foundation's names,
/// checking what each article says happens; on a virtual clock, so every time is exact. Where an
/// article uses target–selector, the Swift port uses the block API, the one Swift has on Linux.
@Suite("Seed NSTimer examples in Foundation's names")
struct SeedTimerExampleTests {
    @Test("M1 (seeds 000, 003): scheduledTimer is already in the default mode; Timer(...) waits for add(_:forMode:)")
    func scheduledOrAddedLater() {
        Scene.run { scene in
            var fired: [String] = []
            let scheduled = Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in fired.append("scheduled") }
            let added = Timer(timeInterval: 1, repeats: false) { _ in fired.append("added") }
            scene.loop.run(until: scene.date(in: 2))
            #expect(fired == ["scheduled"])
            #expect(!scheduled.isValid && added.isValid)
            scene.loop.add(added, forMode: .default)
            scene.loop.run(until: scene.date(in: 2))
            #expect(fired == ["scheduled", "added"])
        }
    }

    @Test("M2 (seed 003): a default-mode 0.5 s timer waits while a scroll view is dragged, then fires once, late")
    func trackingPausesDefaultModeTimers() {
        Scene.run { scene in
            var firedAt: [Int64] = []
            let timer = Timer(timeInterval: 0.5, repeats: true) { _ in firedAt.append(scene.milliseconds) }
            scene.loop.add(timer, forMode: .default)
            scene.scroll(from: 1.2, to: 2.7)
            scene.loop.run(until: scene.date(in: 3.9))
            #expect(firedAt == [500, 1_000, 2_700, 3_000, 3_500])
        }
    }

    @Test(
        "M3 (seeds 000, 003): added to the default and the tracking mode, or to the common modes, it fires while dragging",
        arguments: ["default and tracking", "common"])
    func commonModesKeepFiring(registration: String) {
        Scene.run { scene in
            var firedAt: [Int64] = []
            let timer = Timer(timeInterval: 0.5, repeats: true) { _ in firedAt.append(scene.milliseconds) }
            if registration == "common" {
                scene.makeTrackingCommon()
                scene.loop.add(timer, forMode: .common)
            } else {
                scene.loop.add(timer, forMode: .default)
                scene.loop.add(timer, forMode: .tracking)
            }
            scene.scroll(from: 1.2, to: 2.7)
            scene.loop.run(until: scene.date(in: 3.9))
            #expect(firedAt == [500, 1_000, 1_500, 2_000, 2_500, 3_000, 3_500])
        }
    }

    @Test("T1 (seeds 000, 003): a one-shot timer fires once and is invalid; a repeating one fires until invalidated")
    func oneShotOrRepeating() {
        Scene.run { scene in
            var oneShot = 0
            var repeating = 0
            let once = Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in oneShot += 1 }
            let again = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in repeating += 1 }
            scene.loop.run(until: scene.date(in: 3.5))
            #expect(oneShot == 1 && !once.isValid)
            #expect(repeating == 3 && again.isValid)
            again.invalidate()
            scene.loop.run(until: scene.date(in: 3.5))
            #expect(repeating == 3)
        }
    }

    @Test("T2 (seed 004): fire() right after scheduling a 3 s timer runs it at once; its schedule stays 3 s, 6 s")
    func fireRunsTheActionNow() {
        Scene.run { scene in
            var firedAt: [Int64] = []
            let timer = Timer.scheduledTimer(withTimeInterval: 3, repeats: true) { _ in
                firedAt.append(scene.milliseconds)
            }
            timer.fire()
            scene.loop.run(until: scene.date(in: 6.5))
            #expect(firedAt == [0, 3_000, 6_000])
            let once = Timer.scheduledTimer(withTimeInterval: 3, repeats: false) { _ in }
            once.fire()
            #expect(!once.isValid)
        }
    }

    @Test("T3 (seed 003): a 100 ms timer delayed by a 300 ms computation fires once right after it, then on its grid")
    func lateRepeatingTimerSkips() {
        Scene.run { scene in
            var firedAt: [Int64] = []
            let timer = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: true) { _ in
                firedAt.append(scene.milliseconds)
            }
            let work = Timer.scheduledTimer(withTimeInterval: 0.45, repeats: false) { _ in scene.busy(0.3) }
            scene.loop.run(until: scene.date(in: 0.95))
            #expect(firedAt == [100, 200, 300, 400, 750, 800, 900])
            #expect(!work.isValid && timer.isValid)
        }
    }

    @Test("T4 (seed 002): invalidated from another thread through base.handle, a timer stops on its own loop's thread")
    func invalidateFromAnotherThread() {
        Scene.run { scene in
            var firedAt: [Int64] = []
            let timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { timer in
                firedAt.append(scene.milliseconds)
                // The timer is not Sendable: another thread gets its handle, which hands the request
                // to this loop. The virtual clock waits for that thread's work before it moves on.
                let handle = timer.base.handle
                let work = scene.loop.base.handle.beginExternalWork()
                DispatchQueue.global().async {
                    handle.invalidate()
                    work.finish()
                }
            }
            scene.loop.run(until: scene.date(in: 5))
            #expect(firedAt == [1_000])
            #expect(!timer.isValid)
            #expect(scene.loop.limitDate(forMode: .default) == nil)  // out of the loop
        }
    }

    @Test("T5: a timer on a loop that does not run never fires; when the loop runs it fires once, late")
    func noRunningLoopNoFires() {
        Scene.run { scene in
            var firedAt: [Int64] = []
            Timer.scheduledTimer(withTimeInterval: 0.5, repeats: true) { _ in firedAt.append(scene.milliseconds) }
            scene.busy(2.2)
            #expect(firedAt.isEmpty)
            scene.loop.run(until: scene.date(in: 0.4))
            #expect(firedAt == [2_200, 2_500])
        }
    }

    /// The seeds' SJTimer and DetailViewController: an object that owns a repeating timer and
    /// means to invalidate it in `deinit`.
    final class Ticker {
        private(set) var timer: Timer?
        var ticks = 0
        let onDeinit: () -> Void

        init(onDeinit: @escaping () -> Void) {
            self.onDeinit = onDeinit
        }

        /// L1, L3: the block holds the ticker as the seeds' `target: self` does.
        func startHoldingSelf() {
            timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in self.ticks += 1 }
        }

        /// L2a: the block captures the ticker weakly.
        func startWeakly() {
            timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in self?.ticks += 1 }
        }

        /// L2b (seed 000, NSTimer+BlockSupport): the block rides in the user info; the timer's own
        /// block belongs to no one and only calls it.
        func startWithBlockInUserInfo() {
            let timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { timer in
                (timer.userInfo as? () -> Void)?()
            }
            let block: () -> Void = { [weak self] in self?.ticks += 1 }
            timer.userInfo = block
            self.timer = timer
        }

        deinit {
            timer?.invalidate()
            onDeinit()
        }
    }

    @Test(
        "L1/L3 (seeds 001, 004): a timer whose block holds its owner keeps it alive and ticking after the screen is gone"
    )
    func strongCaptureKeepsTheOwner() {
        Scene.run { scene in
            var deinitRan = false
            var ticker: Ticker? = Ticker { deinitRan = true }
            ticker?.startHoldingSelf()
            weak let weakTicker = ticker
            let timer = ticker?.timer
            ticker = nil
            scene.loop.run(until: scene.date(in: 3.5))
            #expect(!deinitRan)
            #expect(weakTicker?.ticks == 3)
            timer?.invalidate()
            #expect(weakTicker == nil && deinitRan)
        }
    }

    @Test(
        "L2a/L2b (seeds 000, 001): a weak capture, or the block in the user info, lets deinit run and invalidate",
        arguments: ["weak capture", "block in user info"])
    func weakCaptureLetsDeinitInvalidate(way: String) {
        Scene.run { scene in
            var deinitRan = false
            var ticker: Ticker? = Ticker { deinitRan = true }
            if way == "weak capture" { ticker?.startWeakly() } else { ticker?.startWithBlockInUserInfo() }
            scene.loop.run(until: scene.date(in: 2.5))
            #expect(ticker?.ticks == 2)
            let timer = ticker?.timer
            ticker = nil
            #expect(deinitRan)
            #expect(timer?.isValid == false)
            #expect(scene.loop.limitDate(forMode: .default) == nil)
        }
    }

    /// L2c (seeds 000 CDTimerTarget, 004 HWWeakTimerTarget): a target between timer and owner
    /// holds the owner weakly and invalidates the timer at the first fire after the owner is gone.
    /// Swift has no selectors: the action is a closure that receives the owner.
    final class WeakTimerTarget<Owner: AnyObject> {
        weak var owner: Owner?
        let action: (Owner) -> Void

        init(owner: Owner, action: @escaping (Owner) -> Void) {
            self.owner = owner
            self.action = action
        }

        static func scheduledTimer(
            withTimeInterval interval: TimeInterval, owner: Owner, repeats: Bool, action: @escaping (Owner) -> Void
        ) -> Timer {
            let target = WeakTimerTarget(owner: owner, action: action)
            return Timer.scheduledTimer(withTimeInterval: interval, repeats: repeats) { timer in
                if let owner = target.owner { target.action(owner) } else { timer.invalidate() }
            }
        }
    }

    @Test(
        "L2c (seeds 000, 004): a weak intermediate target invalidates the timer at its first fire after the owner went")
    func weakTargetInvalidatesAfterTheOwner() {
        Scene.run { scene in
            final class Screen { var fires = 0 }
            var screen: Screen? = Screen()
            let timer = WeakTimerTarget.scheduledTimer(withTimeInterval: 3, owner: screen!, repeats: true) {
                $0.fires += 1
            }
            scene.loop.run(until: scene.date(in: 4))
            #expect(screen?.fires == 1)
            screen = nil
            #expect(timer.isValid)
            scene.loop.run(until: scene.date(in: 3))
            #expect(!timer.isValid)
        }
    }
}
