import TerminalUI

extension DashboardState {
    /// A key: the keymap's command (with the keys the config moved), or a hint that the key does
    /// nothing here.
    mutating func receive(_ key: Key) -> [Effect] {
        // The help opened from a prompt takes the keys until it closes.
        if prompt != nil && !isHelpVisible { return promptKey(key) }
        guard let command = command(for: key) else {
            hint = "\(key.named) does nothing here — press \(KeyAction.name(of: keys.key(of: .help))) for help"
            return [.render(.status)]
        }
        return perform(command)
    }

    /// What `key` does now outside a prompt: the lab's own keys first on the lab's page.
    func command(for key: Key) -> Command? {
        (page == .lab ? Keymap.labCommand(for: key) : nil)
            ?? Keymap.command(for: key, focus: focus, logPage: layout.logPage, bindings: keys)
    }

    /// Carries out `command`. The hint of the previous key goes, except to the help: opening it and
    /// the keys while it is open keep it, so the help shows it in full. Renders come before a
    /// nested run.
    mutating func perform(_ command: Command) -> [Effect] {
        let hadHint = hint != nil
        if !isHelpVisible && command != .toggleHelp { hint = nil }
        var effects: [Effect]
        if isHelpVisible, let lines = command.helpScrollLines(page: layout.helpLines) {
            effects = scrollHelp(by: lines)
        } else if isHelpVisible && !command.worksOverHelp {
            // Keys do not reach the timers behind the overlay.
            if hint == nil { hint = "the help is open: ? or Esc closes it, q quits" }
            effects = []
        } else {
            effects = perform(allowed: command)
        }
        if hadHint || hint != nil { effects.insert(.render(.status), at: 0) }
        return effects
    }

    private mutating func perform(allowed command: Command) -> [Effect] {
        switch command {
        case .focusNext: return focus(by: 1)
        case .focusPrevious: return focus(by: -1)
        case .selectPrevious: return moveSelection(by: -1)
        case .selectNext: return moveSelection(by: 1)
        case .press: return press()
        case .startOrStop: return onSelectedRow("start or stop") { state, row in state.startOrStop(row) }
        case .suspendOrResume: return onSelectedRow("suspend or resume") { state, row in state.suspendOrResume(row) }
        case .moveMode: return onSelectedRow("move") { state, row in state.moveToNextMode(row) }
        case .fireNow: return onSelectedRow("fire") { state, row in state.fireNow(row) }
        case .invalidate: return onSelectedRow("invalidate") { state, row in state.invalidate(row) }
        case .toggleTrackingHold: return toggleTrackingHold()
        case .scroll(let lines): return scroll(by: lines)
        case .scrollToOldest: return scroll(by: -log.count)
        case .scrollToNewest: return scroll(by: log.count)
        case .dragBegan: return drag(began: true)
        case .dragEnded: return drag(began: false)
        case .frameIntervalUp, .frameIntervalDown, .toggleSlowLoad: return adjustTicker(command)
        case .toggleHelp:
            guard !isHelpVisible else { return closeHelp() }
            isHelpVisible = true
            helpOffset = 0
            // Opening draws the overlay only; closing uncovers every panel.
            return [.render(.help)]
        case .dismiss:
            if lapsShown != nil && !isHelpVisible { return toggleLaps() }
            guard isHelpVisible else { return [] }
            return closeHelp()
        case .quit: return quit()
        case .writeTimers: return askForTimersFile()
        case .lap: return onSelectedRow("take a lap of") { state, row in state.takeLap(row) }
        case .toggleLaps: return toggleLaps()
        case .exportLaps: return onSelectedRow("write the laps of") { state, row in state.askForLapsFile(row) }
        case .deleteTimer: return deleteSelectedTimer()
        case .undoDelete: return undoDelete()
        case .addTimer: return askForTimer()
        case .show(let shown):
            guard page != shown else { return [] }
            page = shown
            return [.render(.all)]
        case .selectStrategy, .openScreen, .closeScreen, .stopLeftBehind: return labAction(command)
        case .toggleModal, .makeModalCommon: return modalAction(command)
        case .time(let key): return timeAction(key)
        case .report: return [.report]
        }
    }

    /// Gives `panel` the focus, if it is on screen.
    mutating func focus(on panel: Panel) -> [Effect] {
        guard panels.contains(panel) else { return [] }
        let old = focus
        focus = panel
        return [.render(old.part.union(panel.part))]
    }

    /// Tab, Shift-Tab: the focus moves `step` panels on, round the panels on screen.
    private mutating func focus(by step: Int) -> [Effect] {
        let shown = panels
        let here = shown.firstIndex(of: focus) ?? 0
        return focus(on: shown[(here + step + shown.count) % shown.count])
    }

    private mutating func moveSelection(by delta: Int) -> [Effect] {
        if focus == .log { return scroll(by: delta) }
        let count = rows(of: focus).count
        guard count > 0 else { return [] }
        let old = selectedRow
        selection[focus] = min(max(selected(focus) + delta, 0), count - 1)
        // An inspector with more rows than lines scrolls with the selection: it is drawn whole.
        let inspectorScrolls = focus == .inspector && rows.count > layout.inspector.height - 3
        guard focus == .countdowns || focus == .inspector, !inspectorScrolls, let old, let new = selectedRow else {
            return [.render(focus.part)]
        }
        return old.id == new.id ? [] : [.renderRow(old.id), .renderRow(new.id)]
    }

    /// Enter on the SMS panel: starts the selected button's countdown, unless it is counting (S1);
    /// in overtime it ends the count.
    private mutating func press() -> [Effect] {
        guard focus == .countdowns, let row = selectedRow, row.button != nil else {
            hint =
                selectedRow?.kind.isAlarm == true && focus == .countdowns
                ? "Enter presses an SMS button; s starts or stops the alarm" : "Enter presses a button in the SMS panel"
            return []
        }
        if row.button?.isOvertime == true {
            // Past its end: the press ends the overtime and the button is ready again.
            self[row.id].run = .idle
            self[row.id].button?.cancel()
            return redraw(row) + [.stop(row.id)]
        }
        guard row.button?.isEnabled == true else {
            hint = "\(row.name) is counting: the press is ignored (S1)"
            return []
        }
        return startCountdown(row)
    }

    private mutating func startCountdown(_ row: RowState) -> [Effect] {
        self[row.id].button?.press()
        self[row.id].run = .running
        return redraw(row) + [.start(row.id)]
    }

    /// Runs `body` on the selected row; without one, the hint says how to select a timer to `verb`.
    private mutating func onSelectedRow(_ verb: String, _ body: (inout DashboardState, RowState) -> [Effect])
        -> [Effect]
    {
        guard let row = selectedRow else {
            hint = "select a timer to \(verb) (Tab to the SMS, ticker, inspector or uploads panel)"
            return []
        }
        return body(&self, row)
    }

    /// `s`: a scheduled timer stops (an SMS button goes back to Send), a stopped one starts.
    private mutating func startOrStop(_ row: RowState) -> [Effect] {
        if row.run.isScheduled {
            self[row.id].run = .idle
            self[row.id].button?.cancel()
            return redraw(row) + [.stop(row.id)] + stopwatchEffects(row, .pause)
        }
        if row.button != nil {
            self[row.id].button?.cancel()
            return startCountdown(self[row.id])
        }
        self[row.id].run = .running
        return redraw(row) + [.start(row.id)] + stopwatchEffects(row, .start)
    }

    /// `p`: holds a running timer or lets a held one go on.
    private mutating func suspendOrResume(_ row: RowState) -> [Effect] {
        switch row.run {
        case .running:
            self[row.id].run = .suspended
            return redraw(row) + [.suspend(row.id)] + stopwatchEffects(row, .pause)
        case .suspended:
            self[row.id].run = .running
            return redraw(row) + [.resume(row.id)] + stopwatchEffects(row, .resume)
        case .idle, .invalid:
            return []
        }
    }

    /// `m`: default → tracking → modal → common → default. A kind without modes (a dispatch timer,
    /// G1) is never asked to move: the status bar says why.
    private mutating func moveToNextMode(_ row: RowState) -> [Effect] {
        if let lack = row.kind.lackOfModes {
            hint = "\(row.name): " + lack
            return []
        }
        // Every kind with modes has one (RowKind.mode).
        guard let mode = row.mode else { return [] }
        self[row.id].mode = mode.nextInCycle
        return redraw(row) + [.move(row.id, to: mode.nextInCycle)]
    }

    /// `f`: fires a scheduled timer now (T2); the ticker draws its next frame; the uploader sends
    /// now, during a retry's backoff too. A kind that cannot fire by hand (a display link, D3) or a
    /// timer that is not scheduled is never asked to: the status bar says why.
    private mutating func fireNow(_ row: RowState) -> [Effect] {
        if row.ticker != nil {
            self[row.id].ticker?.frame += 1
            return [.render(.ticker)]
        }
        if let lack = row.kind.lackOfFireByHand {
            hint = "\(row.name): " + lack
            return []
        }
        guard row.run.isScheduled else {
            hint =
                "\(row.name) is \(row.run == .invalid ? "invalidated" : "stopped"): "
                + "\(KeyAction.name(of: keys.key(of: .startStop))) starts it, then it can fire"
            return []
        }
        if row.uploadJob == .upload, uploads?.retryAt != nil {
            hint = "\(row.name): sending now, without waiting out the retry's backoff"
        }
        return [.fire(row.id)]
    }

    /// `x`: invalidates the timer; an SMS button goes back to Send, ready for a new press.
    private mutating func invalidate(_ row: RowState) -> [Effect] {
        guard row.run.isScheduled || row.ticker != nil else { return [] }
        self[row.id].run = .invalid
        self[row.id].button?.cancel()
        if row.ticker != nil { self[row.id].missedTicks = 0 }
        return redraw(row) + [.invalidate(row.id)] + stopwatchEffects(row, .pause)
    }

    /// `+`, `-`, `l`: the ticker's frame interval and slow load (D3).
    private mutating func adjustTicker(_ command: Command) -> [Effect] {
        guard let row = tickerRow, var settings = row.ticker else { return [] }
        let range = TickerSettings.frameIntervals
        switch command {
        case .frameIntervalUp: settings.frameInterval = min(settings.frameInterval + 1, range.upperBound)
        case .frameIntervalDown: settings.frameInterval = max(settings.frameInterval - 1, range.lowerBound)
        default: settings.isSlow.toggle()
        }
        self[row.id].ticker = settings
        return redraw(row) + [.setFrameInterval(row.id, settings.frameInterval)]
    }
}

extension DashboardState {
    /// Closes the help: the status bar goes back to the open prompt's line, or to the key hints.
    fileprivate mutating func closeHelp() -> [Effect] {
        isHelpVisible = false
        hint = promptLine
        return [.render(.all)]
    }

    /// Scrolls the help overlay by `lines`, within its lines.
    fileprivate mutating func scrollHelp(by lines: Int) -> [Effect] {
        let last = max(helpLines.count - layout.helpLines, 0)
        let offset = min(max(helpOffset + lines, 0), last)
        guard offset != helpOffset else { return [] }
        helpOffset = offset
        return [.render(.help)]
    }
}

extension Command {
    /// How far the key scrolls the help overlay while it is open (`page` lines a page), if it does.
    func helpScrollLines(page: Int) -> Int? {
        switch self {
        case .selectPrevious: -1
        case .selectNext: 1
        case .scroll(let lines): lines < -1 ? -page : lines > 1 ? page : lines
        case .scrollToOldest: Int.min / 2
        case .scrollToNewest: Int.max / 2
        default: nil
        }
    }

    /// Whether the key acts while the help overlay is open: only closing it and quitting do.
    var worksOverHelp: Bool {
        switch self {
        case .toggleHelp, .dismiss, .quit: true
        default: false
        }
    }
}
