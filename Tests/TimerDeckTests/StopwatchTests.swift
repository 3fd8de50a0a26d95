import Foundation
import KeptTimers
import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck

/// A stopwatch `run` refreshed every 100 ms, beside an overtime countdown.
private let stopwatchConfig = """
    [[timers]]
    name = "tea"
    drives = "countdown"
    countdown = 3
    overtime = true
    start = false

    [[timers]]
    name = "run"
    drives = "stopwatch"
    interval = "100ms"
    start = false
    """

/// Starts `run` and takes laps at 62 s, 117.5 s and 187.5 s; 3 s later shows its laps.
private let lapsScript =
    "key down\nkey s\nwait 62s\nkey L\nwait 55500ms\nkey L\nwait 70s\nkey L\nwait 3s\nkey v\nsnapshot\n"

@Suite("Stopwatch: laps with split and lap time, the fastest and the slowest marked, written as CSV")
struct StopwatchTests {
    private let start = Instant(nanoseconds: 5_000_000_000)

    @Test("Its time is the time run, held while paused; a lap is the split, only while it runs")
    func elapsedAndLaps() {
        var watch = Stopwatch()
        let lapBeforeStart = watch.apply(.lap, at: start)
        #expect(!lapBeforeStart)
        watch.apply(.start, at: start)
        watch.apply(.lap, at: start + .seconds(10))
        watch.apply(.pause, at: start + .seconds(15))
        let lapWhilePaused = watch.apply(.lap, at: start + .seconds(20))
        #expect(!lapWhilePaused)
        #expect(watch.elapsed(at: start + .seconds(100)) == .seconds(15))
        watch.apply(.resume, at: start + .seconds(100))
        watch.apply(.lap, at: start + .seconds(103))
        watch.apply(.lap, at: start + .seconds(113))
        #expect(watch.elapsed(at: start + .seconds(120)) == .seconds(35))
        #expect(watch.laps.map(\.split) == [.seconds(10), .seconds(18), .seconds(28)])
        #expect(watch.laps.map(\.time) == [.seconds(10), .seconds(8), .seconds(10)])
        #expect(watch.laps.map(\.isFastest) == [false, true, false])
        #expect(watch.laps.map(\.isSlowest) == [true, false, true])
        #expect(
            watch.csvLines(name: "run") == [
                "run,1,10.000,10.000,slowest", "run,2,8.000,18.000,fastest", "run,3,10.000,28.000,slowest",
            ])
        watch.apply(.start, at: start + .seconds(200))
        #expect(watch.laps.isEmpty && watch.elapsed(at: start + .seconds(201)) == .seconds(1))
    }

    @Test("One lap is neither fastest nor slowest; the time shows tenths, hours from an hour on")
    func oneLapAndText() {
        var watch = Stopwatch()
        watch.apply(.start, at: start)
        watch.apply(.lap, at: start + .milliseconds(62_345))
        #expect(watch.csvLines(name: "w") == ["w,1,62.345,62.345,"])
        #expect(ClockText.stopwatch(.milliseconds(62_345)) == "01:02.3")
        #expect(ClockText.stopwatch(.seconds(3_600)) == "1:00:00.0")
    }

    @Test("On the dashboard: it reads 03:10.5 at 190.5 s, its laps are listed, and L on a countdown says why not")
    func onTheDashboard() throws {
        let config = try Config.parse(stopwatchConfig)
        let snapshots = try runHeadless(
            "size 80x24\n" + lapsScript + "key esc\nkey up\nkey L\nsnapshot\n", config: config)
        let laps = snapshots[0].screen
        #expect(laps.contains("Laps of run (3; v or Esc to close)"), "\(laps)")
        #expect(line(laps, containing: "  1  ").contains("01:02.0      01:02.0"), "\(laps)")
        #expect(line(laps, containing: "  2  ").contains("00:55.5      01:57.5 fastest"), "\(laps)")
        #expect(line(laps, containing: "  3  ").contains("01:10.0      03:07.5 slowest"), "\(laps)")
        let after = snapshots[1].screen
        #expect(line(after, containing: "run ·").contains("[ 03:10.5     ] run · stopwatch, 3 laps"), "\(after)")
        #expect(after.contains("tea is no stopwatch: L takes a lap of one"), "\(after)")
        // The timer only refreshes the display: no fire of it in the log.
        #expect(after.contains("Fire log (0 fires)"), "\(after)")
    }

    @Test("E writes the laps as CSV to the file named; an existing file is overwritten only on Enter at the question")
    func exportKey() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("laps.csv").path
        let config = try Config.parse(stopwatchConfig)
        let export = "key E\n\(typing(path))\nkey enter\n"
        let snapshots = try runHeadless(
            "size 120x40\n" + lapsScript + "key v\n" + export + "snapshot\n" + export + "snapshot\nkey esc\nsnapshot\n",
            config: config)
        let expected =
            "stopwatch,lap,lap_seconds,split_seconds,mark\nrun,1,62.000,62.000,\nrun,2,55.500,117.500,fastest\n"
            + "run,3,70.000,187.500,slowest\n"
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
        #expect(snapshots[1].screen.contains("wrote the laps of run to"), "\(snapshots[1].screen)")
        #expect(snapshots[2].screen.contains("exists: Enter overwrites it, Esc keeps it"), "\(snapshots[2].screen)")
        #expect(snapshots[3].screen.contains("kept"), "\(snapshots[3].screen)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
    }

    @Test("The a form: stopwatch makes one refreshed every interval, started at once")
    func addForm() throws {
        let timer = try TimerDefinition.parse(line: "run 100ms stopwatch", taken: [])
        #expect(timer.drives == .stopwatch && timer.interval == .milliseconds(100))
        let snapshots = try runHeadless(
            "size 80x24\nwait 1s\nkey a\n\(typing("run 100ms stopwatch"))\nkey enter\nwait 2s\nsnapshot\n")
        #expect(snapshots[0].screen.contains("[ 00:02.0     ] run · stopwatch, 0 laps"), "\(snapshots[0].screen)")
    }

    @Test("--json: a stopwatch's time and splits, an alarm's time")
    func json() throws {
        let config = try Config.parse(
            stopwatchConfig
                + "\n\n[[timers]]\nname = \"party\"\nmechanism = \"alarm\"\nfirst_fire = \"2026-12-24T18:00\"\n")
        var lines: [String] = []
        let session = try HeadlessSession(
            config: config, uploads: nil, script: HeadlessScript(parsing: lapsScript), json: true
        ) { lines.append($0) }
        session.run()
        let line = try #require(lines.first)
        #expect(line.contains("\"elapsed_ns\":190500000000,"), "\(line)")
        #expect(line.contains("\"lap_splits_ns\":[62000000000,117500000000,187500000000]"), "\(line)")
        #expect(line.contains("\"alarm_at\":\"2026-12-24T18:00\""), "\(line)")
    }

    @Test("A stopwatch on a display link or a one-shot timer is refused")
    func refused() {
        for extra in ["mechanism = \"displaylink\"\n", "repeats = false\n"] {
            #expect(throws: ConfigError.self) {
                try Config.parse("[[timers]]\nname = \"run\"\ndrives = \"stopwatch\"\n" + extra)
            }
        }
    }

    @Test("Golden snapshots: the laps over the panels at 80×24 and 120×40")
    @available(*, noasync)
    func goldenSnapshots() throws {
        try SnapshotTests().check("stopwatch-laps", lapsScript, config: Config.parse(stopwatchConfig))
    }
}

@Suite(
    "--laps FILE: every stopwatch's laps as CSV at the end, never over an existing file", .serialized,
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct LapsOptionTests {
    @Test("A headless run writes the laps at its end (and each lap to the trace); an existing file is refused")
    func lapsOption() throws {
        let scratch = try ScratchDirectory()
        let config = try scratch.write(stopwatchConfig, to: "laps.toml")
        let script = try scratch.write(lapsScript, to: "laps.txt")
        let path = scratch.path("laps.csv").path
        let arguments = ["--headless", "--script", script, "--config", config, "--laps", path]
        let first = try ChildProcess.run(BuiltProduct.path("timerdeck"), arguments, timeout: .seconds(60))
        #expect(first.status == 0, "\(first)")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.hasPrefix("stopwatch,lap,lap_seconds,split_seconds,mark\nrun,1,62.000,62.000,\n"))
        let trace = scratch.path("laps.jsonl").path
        let traced = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["--headless", "--script", script, "--config", config, "--trace", trace],
            timeout: .seconds(60))
        #expect(traced.status == 0, "\(traced)")
        #expect(
            try String(contentsOfFile: trace, encoding: .utf8).contains(
                "{\"event\":\"lap\",\"t_ns\":117500000000,\"timer\":\"run\",\"split_ns\":117500000000,"
                    + "\"lap_ns\":55500000000,\"depth\":1}"))
        let plotted = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["plot", trace, "--out", scratch.path("laps.svg").path],
            timeout: .seconds(60))
        #expect(plotted.status == 0, "\(plotted)")
        let second = try ChildProcess.run(BuiltProduct.path("timerdeck"), arguments, timeout: .seconds(60))
        #expect(second.status == 2, "\(second)")
        #expect(second.error.contains("exists; timerdeck does not overwrite it"), "\(second)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == written)
    }
}
