import RunLoopKit
import TerminalUI
import Testing

import struct Foundation.Date

@testable import TimerDeck
@testable import Uploads

/// Panels drawn from a snapshot value into an in-memory screen: no run loop, no SQLite.
@Suite("Panels drawn from a snapshot")
struct PanelTests {
    static let size = Size(width: 80, height: 24)

    func snapshot(of state: DashboardState, mode: RunLoop.Mode? = .default, depth: Int = 1) -> DashboardSnapshot {
        DashboardSnapshot(
            state: state,
            loop: LoopStatus(
                mode: mode, depth: depth, commonModes: [.default, .tracking], now: .zero, startTime: .zero),
            readings: [:])
    }

    func makeState(label: String = "dir (test)", size: Size = Self.size) -> DashboardState {
        DashboardState(scene: .standard(Config(), uploadsLabel: label), size: size)
    }

    func drawUploads(_ state: DashboardState) -> String {
        let screen = GridScreen(size: state.layout.size)
        UploadPanel.draw(snapshot(of: state), on: screen.canvas.region(state.layout.uploads!), focused: false)
        return screen.snapshot()
    }

    @Test("A batch the relay took and the store does not show: the panel says so in a few words")
    func unconfirmedBatch() {
        var state = makeState(size: Size(width: 120, height: 40))
        var status = UploadStatus()
        let error = UploadError.unconfirmed(
            store: "http://store:9090", after: .seconds(30), why: "12 of its 40 points are not there")
        status.lastAttempt = UploadStatus.Attempt(
            time: .zero, sampleCount: 10, error: error, statusCode: 204, roundTrip: .milliseconds(30_012))
        _ = state.apply(.pipelineStatus(status))
        #expect(drawUploads(state).contains("unconfirmed: 12 of its 40 points are not there"))
    }

    @Test("Two rejected batches read \"2 batches rejected\", one \"1 batch rejected\"")
    func rejectedBatchesPlural() {
        var state = makeState(size: Size(width: 120, height: 40))
        var status = UploadStatus()
        status.deliveredThisRun = 60
        status.counters = OutboxCounters(
            pendingSamples: 0, unbatchedSamples: 0, pendingBatches: 2, rejectedBatches: 2,
            deliveredSamples: 60, lastSample: nil)
        _ = state.apply(.pipelineStatus(status))
        #expect(drawUploads(state).contains("delivered 60 this run · 2 batches rejected"))
        status.counters = OutboxCounters(
            pendingSamples: 0, unbatchedSamples: 0, pendingBatches: 1, rejectedBatches: 1,
            deliveredSamples: 60, lastSample: nil)
        _ = state.apply(.pipelineStatus(status))
        #expect(drawUploads(state).contains("delivered 60 this run · 1 batch rejected"))
    }

    @Test("Refused samples: the panel counts the parked ones and what it has no room for; the overlay has the reason")
    func refusedBatchesAreExplained() {
        var state = makeState()
        var status = UploadStatus()
        let rejection = UploadError.rejected(status: 400, message: "schema mismatch in field lat")
        status.counters = OutboxCounters(
            pendingSamples: 120, unbatchedSamples: 96, pendingBatches: 2, rejectedBatches: 1, parkedSamples: 24,
            deliveredSamples: 0, lastSample: nil)
        status.lastAttempt = UploadStatus.Attempt(
            time: .zero, sampleCount: 24, error: rejection, statusCode: 400, roundTrip: .milliseconds(12))
        status.refused = UploadStatus.Refused(count: 24, error: rejection)
        status.problem = "outbox: the disk holding the outbox database is full"
        _ = state.apply(.pipelineStatus(status))
        let panel = drawUploads(state)
        #expect(panel.contains("24 samples refused (1 batch, 1"), "bad news before the routine lines: \(panel)")
        #expect(panel.contains("+2 more lines"), "pending and the last upload have no room: \(panel)")
        var tall = makeState(size: Size(width: 120, height: 40))
        _ = tall.apply(.pipelineStatus(status))
        #expect(drawUploads(tall).contains("pending 120 (24 parked)"))
        #expect(state.messages.contains("Last upload failed (HTTP 400): \(rejection.description)"))
        #expect(
            state.messages.contains(
                "24 samples refused (1 batch, 1 attempt) this run, parked in the outbox until the next start: "
                    + rejection.description))
    }

    @Test("Samples dropped at the outbox's size cap: the panel names how many and when they were taken")
    func droppedSamplesAreShown() {
        var state = makeState(size: Size(width: 120, height: 40))
        var status = UploadStatus()
        let taken = { (seconds: Double) in Date(timeIntervalSince1970: 1_767_225_600 + seconds) }
        status.counters = OutboxCounters(
            pendingSamples: 500, unbatchedSamples: 500, pendingBatches: 0, rejectedBatches: 0, deliveredSamples: 0,
            lastSample: nil, droppedSamples: 120, droppedTakenAt: taken(5)...taken(600))
        _ = state.apply(.pipelineStatus(status))
        #expect(drawUploads(state).contains("120 samples dropped: outbox full"))
        #expect(
            state.messages.contains(
                "outbox full: 120 samples dropped, oldest first (taken 2026-01-01T00:00:05.000Z … 2026-01-01T00:10:00.000Z)"
            ))
        status.counters = OutboxCounters(
            pendingSamples: 500, unbatchedSamples: 500, pendingBatches: 0, rejectedBatches: 0, deliveredSamples: 0,
            lastSample: nil)
        _ = state.apply(.pipelineStatus(status))
        #expect(!drawUploads(state).contains("outbox full") && !state.messages.contains { $0.contains("outbox full") })
    }

    @Test("Once saving works again after lost samples, the 80-column panel says so before the reason")
    func savingAgainShowsOnTheCutLine() {
        var state = makeState()
        var status = UploadStatus()
        status.unsaved = UploadStatus.Unsaved(count: 53, error: .diskFull(path: "/var/outbox.sqlite"))
        _ = state.apply(.pipelineStatus(status))
        #expect(drawUploads(state).contains("53 samples NOT saved: The disk"))
        status.unsaved?.savedSince = 12
        _ = state.apply(.pipelineStatus(status))
        #expect(drawUploads(state).contains("53 samples NOT saved (saving"))
        #expect(
            state.messages.first?.hasPrefix("53 samples NOT saved (saving again: 12 saved since): The disk") == true)
    }

    @Test("A long problem and a long sink are cut at a word with an ellipsis, never mid-word")
    func longTextEndsInAnEllipsis() {
        var state = makeState(label: "http://collector.example:8080/ingest/v1/batches")
        var status = UploadStatus()
        status.problem = "outbox: the disk holding the outbox database is full, free some space"
        _ = state.apply(.pipelineStatus(status))
        let screen = drawUploads(state)
        #expect(screen.contains("outbox: the disk holding the…"))
        #expect(
            screen.contains("Uploads (S2) → http://collect…"),
            "a long URL is cut mid-word: its first word is all there is")
    }

    @Test("The title shows the mode and depth of the snapshot and names a mouse drag as such (decision 7)")
    func titleShowsDrag() {
        var state = makeState()
        _ = state.apply(.key(.mouse(MouseEvent(kind: .press, row: 20, column: 3))))
        let screen = GridScreen(size: Self.size)
        TitleBar.draw(snapshot(of: state, mode: .tracking, depth: 2), on: screen.canvas.region(state.layout.title))
        #expect(
            screen.snapshot().hasPrefix(" TimerDeck  mode: tracking  depth: 2  common: [default, tracking]  ⇅ dragging")
        )
    }

    @Test("With the help open, a ripple frame changes no cell of the overlay")
    func overlayIsMasked() {
        var state = makeState()
        _ = state.apply(.key(.character("?")))
        let screen = GridScreen(size: Self.size)
        let view = DashboardView(screen: screen)
        view.render(snapshot(of: state), parts: .all)
        let withOverlay = screen.snapshot()
        let cells = { (screen: GridScreen) in
            (0..<24).flatMap { row in (0..<80).map { screen.cell(row: row, column: $0) } }
        }
        let cellsBefore = cells(screen)
        view.render(snapshot(of: state), parts: .ticker)
        #expect(cells(screen) == cellsBefore, "the same frame drawn again under the overlay changes no cell")
        _ = state.apply(
            .fired(
                RowID(number: 3),
                .frame(
                    time: .zero + .milliseconds(500), mode: .default,
                    timestamp: .zero + .milliseconds(500), duration: .nanoseconds(16_666_667),
                    skippedFrames: 0)))
        view.render(snapshot(of: state), parts: .ticker)
        let lines = screen.snapshot().split(separator: "\n").map(String.init)
        let before = withOverlay.split(separator: "\n").map(String.init)
        let help = state.layout.help
        for row in help.row..<(help.row + help.height) {
            #expect(
                Array(lines[row]).dropFirst(help.column).prefix(help.width)
                    == Array(before[row]).dropFirst(help.column).prefix(help.width))
        }
    }

    @Test("A key that changes one row redraws that row's lines, not its panels")
    func oneRowRedraw() {
        var state = makeState()
        let first = RowID(number: 0)
        let refresh = Effect.refreshTimes(every: .seconds(1), tolerance: .milliseconds(250))
        #expect(state.apply(.key(.enter)) == [.renderRow(first), .start(first), refresh], "and the times refresh")
        let screen = GridScreen(size: Self.size)
        let view = DashboardView(screen: screen)
        view.render(snapshot(of: state), parts: .all)
        // Both rows change in the state, but only the first is asked for.
        _ = state.apply(
            .fired(first, .timer(time: .zero + .seconds(1), mode: .default, lateness: .zero, ticks: 1, isManual: false))
        )
        _ = state.apply(.key(.down))
        _ = state.apply(.key(.enter))
        view.render(snapshot(of: state), parts: [], rows: [first])
        let text = screen.snapshot()
        #expect(line(text, containing: "Timer in default").contains("[ Resend (59) ]"))
        #expect(line(text, containing: "Timer in common").contains("[ Send        ]"), "the other row was not redrawn")
        #expect(line(text, containing: "sms-default RunLoop").contains("0µs"), "its inspector line was")
        #expect(line(text, containing: "sms-common  RunLoop").contains("idle"))
    }

    @Test("A three-digit countdown's button is whole, [ Resend (180) ], and every button in the panel is as wide")
    func threeDigitCountdownFits() throws {
        let config = try Config.parse(
            """
            [[timers]]
            name = "tea"
            drives = "countdown"
            countdown = 180

            [[timers]]
            name = "egg"
            drives = "countdown"
            countdown = 30
            """)
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: Self.size)
        _ = state.apply(.key(.enter))
        let screen = GridScreen(size: Self.size)
        DashboardView(screen: screen).render(snapshot(of: state), parts: .all)
        let text = screen.snapshot()
        #expect(line(text, containing: "tea ·").contains("[ Resend (180) ]"), "\(text)")
        #expect(line(text, containing: "egg ·").contains("[ Send         ]"), "\(text)")
    }
}
