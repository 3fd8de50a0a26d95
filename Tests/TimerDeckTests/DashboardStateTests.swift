import RunLoopKit
import TerminalUI
import Testing
import TimeUnits

@testable import TimerDeck

/// `DashboardState.apply` on its own: no run loop, no screen, no SQLite. Fires are given as the
/// driver would report them, at exact virtual times.
@Suite("Dashboard state machine (S1, M2, decision 7)")
struct DashboardStateTests {
    static let smsDefault = RowID(number: 0)
    static let smsCommon = RowID(number: 1)
    static let smsGCD = RowID(number: 2)
    static let ticker = RowID(number: 3)

    func makeState(size: Size = Size(width: 80, height: 24)) -> DashboardState {
        DashboardState(scene: .standard(Config(), uploadsLabel: "dir (test)"), size: size)
    }

    func second(_ n: Int64) -> Instant { Instant(nanoseconds: n * Nanoseconds.perSecond) }

    func label(_ state: DashboardState, _ id: RowID) -> String? { state[id].button?.label }

    // MARK: S1

    @Test(
        "S1: Enter starts the default-mode row's timer and reads Resend (60); each fire counts one second; Send at the 60th"
    )
    func smsLabelsAtExactTimes() {
        var state = makeState()
        let effects = state.apply(.key(.enter))
        #expect(effects.contains(.start(Self.smsDefault)))
        #expect(label(state, Self.smsDefault) == "Resend (60)")
        #expect(state[Self.smsDefault].run == .running)
        _ = state.apply(.fired(Self.smsDefault, Fire.scheduled(at: second(1))))
        #expect(label(state, Self.smsDefault) == "Resend (59)")
        for time in 2...59 { _ = state.apply(.fired(Self.smsDefault, Fire.scheduled(at: second(Int64(time))))) }
        #expect(label(state, Self.smsDefault) == "Resend (01)")
        let last = state.apply(.fired(Self.smsDefault, Fire.scheduled(at: second(60))))
        #expect(label(state, Self.smsDefault) == "Send")
        #expect(last.contains(.stop(Self.smsDefault)), "the countdown's end stops its timer")
        #expect(state[Self.smsDefault].run == .idle)
        #expect(state.log.count == 60)
    }

    @Test("S1: a press while counting is ignored: no second timer, the label stays, a hint says why")
    func pressWhileCountingIsIgnored() {
        var state = makeState()
        _ = state.apply(.key(.enter))
        _ = state.apply(.fired(Self.smsDefault, Fire.scheduled(at: second(1))))
        _ = state.apply(.fired(Self.smsDefault, Fire.scheduled(at: second(2))))
        let effects = state.apply(.key(.enter))
        #expect(!effects.contains(.start(Self.smsDefault)))
        #expect(label(state, Self.smsDefault) == "Resend (58)")
        #expect(state.hint == "sms-default is counting: the press is ignored (S1)")
    }

    @Test("S1: x invalidates the counting row, the button goes back to Send, and Enter starts a new countdown")
    func invalidateThenPress() {
        var state = makeState()
        _ = state.apply(.key(.enter))
        _ = state.apply(.fired(Self.smsDefault, Fire.scheduled(at: second(1))))
        _ = state.apply(.fired(Self.smsDefault, Fire.scheduled(at: second(2))))
        let invalidated = state.apply(.key(.character("x")))
        #expect(invalidated.contains(.invalidate(Self.smsDefault)))
        #expect(state[Self.smsDefault].run == .invalid)
        #expect(label(state, Self.smsDefault) == "Send")
        let pressed = state.apply(.key(.enter))
        #expect(pressed.contains(.start(Self.smsDefault)))
        #expect(label(state, Self.smsDefault) == "Resend (60)")
        #expect(state.hint == nil)
    }

    @Test("S1/G3: the GCD row counts from the deadline of its first event; x leaves it at Send, ready for Enter")
    func dispatchRowCountsFromItsDeadlineAndInvalidates() {
        var state = makeState()
        _ = state.apply(.key(.down))
        _ = state.apply(.key(.down))
        #expect(state.apply(.key(.enter)).contains(.start(Self.smsGCD)))
        func event(_ seconds: Int64, ticks: Int = 1) -> Event {
            .fired(
                Self.smsGCD,
                .dispatch(
                    time: second(seconds), mode: .default, clockNow: second(100 + seconds), firstDue: second(100),
                    ticks: ticks, isManual: false))
        }
        _ = state.apply(event(0))
        #expect(label(state, Self.smsGCD) == "Resend (60)")
        _ = state.apply(event(2))
        #expect(label(state, Self.smsGCD) == "Resend (58)")
        // A stall of 5 s comes as one event standing for 5 ticks: the label jumps to the deadline (G3).
        _ = state.apply(event(7, ticks: 5))
        #expect(label(state, Self.smsGCD) == "Resend (53)")
        #expect(state[Self.smsGCD].missedTicks == 4)
        _ = state.apply(.key(.character("x")))
        #expect(label(state, Self.smsGCD) == "Send")
        #expect(state[Self.smsGCD].run == .invalid)
        #expect(state.apply(.key(.enter)).contains(.start(Self.smsGCD)))
        #expect(label(state, Self.smsGCD) == "Resend (60)")
    }

    // MARK: M2

    @Test("M2: while tracking, the default-mode row waits for its mode and the common-mode row runs")
    func trackingPausesDefaultRowsOnly() {
        var state = makeState()
        _ = state.apply(.key(.enter))
        _ = state.apply(.key(.down))
        _ = state.apply(.key(.enter))
        let effects = state.apply(.key(.character("t")))
        #expect(
            effects.last == .enterTracking(quiet: nil), "the nested run comes last: it returns only when tracking ends")
        #expect(state.gesture == .held)
        let common: [RunLoop.Mode] = [.default, .tracking]
        #expect(state[Self.smsDefault].displayState(inMode: .tracking, commonModes: common) == .waitingForMode)
        #expect(state[Self.smsCommon].displayState(inMode: .tracking, commonModes: common) == .running)
        #expect(state[Self.smsDefault].displayState(inMode: .default, commonModes: common) == .running)
        #expect(state.apply(.key(.character("t"))) == [.endRun(.tracking)])
        _ = state.apply(.runEnded(.tracking))
        #expect(state.gesture == nil)
    }

    @Test("M2/C-T6: the late fire on return counts one second, and the skipped grid points are missed ticks")
    func oneLateFireOnReturn() {
        var state = makeState()
        _ = state.apply(.key(.enter))
        for time in 1...10 { _ = state.apply(.fired(Self.smsDefault, Fire.scheduled(at: second(Int64(time))))) }
        #expect(label(state, Self.smsDefault) == "Resend (50)")
        // Scheduled for 11 s, fired at 20.5 s when tracking ended: one fire standing for 10 ticks.
        _ = state.apply(
            .fired(
                Self.smsDefault,
                Fire.scheduled(
                    at: Instant(nanoseconds: 20_500_000_000),
                    lateness: .milliseconds(9_500), ticks: 10)))
        #expect(label(state, Self.smsDefault) == "Resend (49)", "no catch-up burst")
        #expect(state[Self.smsDefault].lastLateness == .milliseconds(9_500))
        #expect(state[Self.smsDefault].missedTicks == 9)
        #expect(state.log[state.log.count - 1].ticks == 10)
    }

    // MARK: Help

    @Test("? opens the help; keys then leave the timers alone with a hint; Esc closes it; q still quits")
    func helpOverlayHoldsKeys() {
        var state = makeState()
        _ = state.apply(.key(.character("?")))
        #expect(state.isHelpVisible)
        for key in [Key.enter, .character("s"), .character("x"), .character("t"), .pageUp, .tab] {
            let effects = state.apply(.key(key))
            #expect(effects == [.render(.status)], "\(key) acted behind the help overlay")
        }
        #expect(state[Self.smsDefault].run == .idle && state.focus == .countdowns && state.gesture == nil)
        #expect(state.hint == "the help is open: ? or Esc closes it, q quits")
        #expect(state.apply(.key(.escape)).contains(.render(.all)))
        #expect(!state.isHelpVisible)
        _ = state.apply(.key(.character("?")))
        #expect(state.apply(.key(.character("q"))) == [.quit])
        #expect(state.quitRequested)
    }

    // MARK: Focus and selection

    @Test("Tab and Shift-Tab cycle the focus; a focus change redraws the two panels; selection stays in range")
    func focusAndSelection() {
        var state = makeState()
        #expect(state.apply(.key(.tab)) == [.render([.countdowns, .ticker])])
        #expect(state.focus == .ticker)
        _ = state.apply(.key(.shiftTab))
        _ = state.apply(.key(.shiftTab))
        #expect(state.focus == .uploads)
        _ = state.apply(.focus(.countdowns))
        for _ in 0..<5 { _ = state.apply(.key(.down)) }
        #expect(state.selected(.countdowns) == 2, "three SMS rows")
        #expect(state.selectedRow?.name == "sms-gcd")
        _ = state.apply(.focus(.log))
        #expect(state.selectedRow == nil)
        #expect(state.apply(.key(.character("s"))) == [.render(.status)])
        #expect(state.hint?.hasPrefix("select a timer to start or stop") == true)
    }

    @Test("m moves the selected row through default → tracking → modal → common; a GCD row has no mode (G1)")
    func moveModeCycles() {
        var state = makeState()
        #expect(state.apply(.key(.character("m"))).contains(.move(Self.smsDefault, to: .tracking)))
        _ = state.apply(.key(.character("m")))
        #expect(state[Self.smsDefault].mode == .modal)
        _ = state.apply(.key(.character("m")))
        #expect(state[Self.smsDefault].mode == .common)
        _ = state.apply(.key(.character("m")))
        #expect(state[Self.smsDefault].mode == .default)
        _ = state.apply(.key(.down))
        _ = state.apply(.key(.down))
        #expect(state.apply(.key(.character("m"))) == [.render(.status)])
        #expect(
            state.hint == "sms-gcd: a dispatch timer has no run loop mode: its events reach the loop in any mode (G1)")
    }

    // MARK: Scrolling (decision 7)

    func stateWithLog(entries: Int, size: Size = Size(width: 80, height: 24)) -> DashboardState {
        var state = makeState(size: size)
        _ = state.apply(.key(.enter))
        for time in 1...entries { _ = state.apply(.fired(Self.smsDefault, Fire.scheduled(at: second(Int64(time))))) }
        return state
    }

    @Test("Scrolling starts a gesture with the quiet period, more scrolling extends it, quiet ends it")
    func scrollGesture() {
        var state = stateWithLog(entries: 30)
        let first = state.apply(.key(.character("k")))
        #expect(first.last == .enterTracking(quiet: .milliseconds(250)))
        #expect(state.gesture == .scrolling && state.scrollback == 1)
        #expect(state.apply(.key(.character("k"))).contains(.extendGesture(quiet: .milliseconds(250))))
        #expect(state.apply(.gestureQuiet) == [.endRun(.tracking)])
        _ = state.apply(.runEnded(.tracking))
        #expect(state.gesture == nil)
        #expect(state.apply(.gestureQuiet).isEmpty, "a stale quiet timer does nothing")
    }

    @Test("A page follows the layout's size; Home shows a full oldest page; new fires keep a scrolled view still")
    func pagesAndHome() {
        var state = stateWithLog(entries: 40)
        let page = state.layout.logPage
        #expect(page == 4, "80×24 shows 4 log entries")
        _ = state.apply(.key(.pageUp))
        #expect(state.scrollback == page)
        _ = state.apply(.runEnded(.tracking))
        _ = state.apply(.focus(.log))
        _ = state.apply(.key(.home))
        #expect(state.scrollback == 40 - page, "the oldest page is full, not one entry")
        _ = state.apply(.fired(Self.smsDefault, Fire.scheduled(at: second(41))))
        #expect(state.scrollback == 41 - page, "the view stays on the entries it shows")
        _ = state.apply(.key(.end))
        #expect(state.scrollback == 0)
        _ = state.apply(.resize(Size(width: 120, height: 40)))
        #expect(state.layout.logPage == 20)
    }

    @Test("Decision 7: a mouse drag holds tracking as a drag (not as t) until the button is released")
    func mouseDrag() {
        var state = makeState()
        let effects = state.apply(.key(.mouse(MouseEvent(kind: .press, row: 20, column: 10))))
        #expect(effects.last == .enterTracking(quiet: nil))
        #expect(state.gesture == .dragging)
        #expect(state.apply(.key(.mouse(MouseEvent(kind: .release, row: 20, column: 10)))) == [.endRun(.tracking)])
    }

    @Test(
        "D3: a frame after skips logs one entry for them; the slow load makes each callback work 40 ms; + and - set the interval"
    )
    func tickerFramesAndSettings() {
        var state = makeState()
        _ = state.apply(.launch)
        func frame(_ slot: Int64, skipped: Int) -> Event {
            let period = Duration.nanoseconds(16_666_667)
            return .fired(
                Self.ticker,
                .frame(
                    time: .zero + period * slot, mode: .default, timestamp: .zero + period * slot,
                    duration: period, skippedFrames: skipped))
        }
        #expect(state.apply(frame(1, skipped: 0)) == [.render(.ticker)])
        #expect(state.log.count == 0, "an ordinary frame is not logged")
        _ = state.apply(frame(5, skipped: 3))
        #expect(state.log.count == 1 && state.log[0].ticks == 4)
        #expect(state[Self.ticker].missedTicks == 3 && state[Self.ticker].ticker?.frame == 5)
        _ = state.apply(.key(.character("l")))
        #expect(state.apply(frame(6, skipped: 3)).last == .work(.milliseconds(40)))
        #expect(state.apply(.key(.character("+"))).contains(.setFrameInterval(Self.ticker, 2)))
        #expect(state[Self.ticker].mechanismText == "DisplayLink 60/2 slow")
        _ = state.apply(.focus(.ticker))
        #expect(state.apply(.key(.character("x"))).contains(.invalidate(Self.ticker)))
        #expect(state[Self.ticker].missedTicks == 0 && state[Self.ticker].run == .invalid)
        #expect(state.apply(.key(.character("s"))).contains(.start(Self.ticker)))
        #expect(state[Self.ticker].run == .running)
    }

    @Test("Launch starts the ticker and the upload pipeline, nothing else, and the 1 s refresh of the times")
    func launch() {
        var state = makeState()
        let effects = state.apply(.launch)
        let refresh = Effect.refreshTimes(every: .seconds(1), tolerance: .milliseconds(250))
        #expect(effects == [.render(.all), .start(Self.ticker), .startUploads, refresh])
        #expect(state.rows.filter { $0.run == .running }.map(\.name) == ["ticker", "sampler", "uploader"])
    }
}

@Suite("Panel text: whole words, units, plurals")
struct PanelTextTests {
    @Test("Every help line fits in the overlay at the minimum size, uncut")
    func helpLinesFit() {
        let layout = DashboardLayout(size: DashboardLayout.minimumSize, rowCount: 6, hasUploads: true)
        for line in Keymap.help(KeyBindings()) {
            #expect(CharacterWidth.of(line) + 1 <= layout.help.width - 2, "cut: \(line)")
        }
        #expect(layout.help.column + layout.help.width <= 80)
    }

    @Test("The fire log's time keeps its unit past 1000 s and fits its 8 cells")
    func logTimeKeepsItsUnit() {
        #expect(PanelText.logTime(.milliseconds(1_000)) == "1.000s")
        #expect(PanelText.logTime(.milliseconds(999_999)) == "999.999s")
        #expect(PanelText.logTime(.milliseconds(1_005_000)) == "1005.00s")
        #expect(PanelText.logTime(.seconds(54_321)) == "54321.0s")
        #expect(PanelText.logTime(.seconds(1_000_000)) == "1000000s")
        for seconds: Int64 in [0, 9, 999, 1_000, 9_999, 10_000, 99_999, 100_000, 9_999_999] {
            #expect(PanelText.logTime(.seconds(seconds)).count <= 8)
        }
    }
}
