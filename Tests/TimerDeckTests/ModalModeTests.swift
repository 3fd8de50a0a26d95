import RunLoopKit
import Testing

@testable import TimerDeck

@Suite("The custom mode \"modal\" (M, C): run it, make it common (M3, C-M5, C-M11)")
struct ModalModeTests {
    @Test("C-M5: the custom mode made common starts running common timers, and stays common")
    func madeCommonRunsCommonTimers() throws {
        // sms-common starts at 0 s; M runs "modal" from 0 s; C at 3 s; M ends the run at 5 s.
        let snapshots = try runHeadless(
            """
            key down
            key enter
            key M
            wait 3s
            snapshot
            key C
            wait 2s
            snapshot
            key M
            key 3
            snapshot
            """)
        try #require(snapshots.count == 3)
        let (before, after, phases) = (snapshots[0].screen, snapshots[1].screen, snapshots[2].screen)
        #expect(before.contains("mode: modal  depth: 2  common: [default, tracking]"))
        #expect(line(before, containing: "sms-common  RunLoop").contains("waiting for mode"))
        #expect(before.contains("Fire log (0 fires)"))
        #expect(after.contains("common: [default, tracking, modal]"))
        // At C the timer is copied into "modal": it fires at once for the ticks of 1, 2 and 3 s
        // (coalesced, C-T6), then at 4 and 5 s, in the custom mode.
        #expect(line(after, containing: "3.000s   sms-common").contains("modal    2.0s   ×3"))
        #expect(line(after, containing: "4.000s   sms-common").contains("modal"))
        #expect(line(after, containing: "5.000s   sms-common").contains("modal"))
        #expect(after.contains("\"modal\" is a common mode from now on"))
        #expect(phases.contains("running default at depth 1 · common modes: default, tracking, modal"))
        #expect(phases.contains("\"modal\" is common for good (C-M5)"))
    }

    @Test("C-M11: M refuses to start inside a tracking gesture; m moves a timer through modal")
    func modalRefusedWhileTrackingAndInModeCycle() {
        var state = DashboardState(scene: .standard(Config(), uploadsLabel: nil), size: .init(width: 80, height: 24))
        _ = state.apply(.key(.character("t")))
        #expect(!state.apply(.key(.character("M"))).contains(.enterModal))
        #expect(state.isModalRunning == false)
        #expect(state.hint?.contains("end the tracking first") == true)
        #expect(RunLoop.Mode.tracking.nextInCycle == .modal)
        #expect(RunLoop.Mode.modal.nextInCycle == .common)
    }
}
