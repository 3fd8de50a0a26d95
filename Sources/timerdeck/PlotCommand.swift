import ArgumentParser
import Glibc
import KeptTimers
import TimerDeck

/// `timerdeck plot TRACE --out FILE`: a `--trace` file drawn as an SVG timeline.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a --trace file as an SVG timeline: lanes, fires, lateness, nested runs, axis and legend.")

    @Argument(
        help: ArgumentHelp("The trace (JSON Lines, as timerdeck --trace writes it).", valueName: "TRACE"),
        completion: .file())
    var trace: String

    @Option(help: ArgumentHelp("Where the SVG goes.", valueName: "FILE"), completion: .file())
    var out: String

    @OptionGroup var replacing: ReplaceFlag

    // Taken as text and checked by `lateAfter(_:)`, so `--late -1ms` is reported as negative (not as
    // a missing value) and every bad value names what is accepted. ArgumentParser adds the default.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Draw a fire as late from this far behind its scheduled time on (e.g. 0ms: any lateness).",
            valueName: "DURATION"))
    var late: String = DurationText.setting(TracePlot.defaultLateAfter)

    /// The `--late` threshold written as `text`; the error says what is wrong and what is accepted.
    static func lateAfter(_ text: String) throws(ValidationError) -> Duration {
        let accepted = "accepted: a duration of 0 or more, e.g. 0ms for any lateness, 1ms, 50ms, 1s"
        if let duration = DurationText.parse(text) { return duration }
        if text.hasPrefix("-") {
            throw ValidationError(
                "option --late: \(UserText.quote(text)) is negative; a fire is late only after its scheduled time "
                    + "(\(accepted))")
        }
        throw ValidationError("option --late: \(UserText.quote(text)) is invalid (\(accepted))")
    }

    func run() throws {
        let lateAfter: Duration
        do {
            lateAfter = try Self.lateAfter(late)
        } catch {
            printError("timerdeck plot: \(error.message)")
            throw ExitCode(2)
        }
        let plot: TracePlot
        do {
            plot = try TracePlot(lines: InputFile.lines(trace, role: "trace"), source: trace, lateAfter: lateAfter)
        } catch let error as InputFileError {
            printError("timerdeck plot: \(error.message)")
            throw ExitCode(2)
        } catch let error as TracePlotError {
            printError("timerdeck plot: \(error.message)")
            throw ExitCode(2)
        }
        if plot.undrawnTimers > 0 {
            printError(
                "timerdeck plot: the trace has \(plot.lanes.count + plot.undrawnTimers) timers; the plot draws the first "
                    + "\(TracePlot.maximumLanes) (in the order of their first fire), as a taller image is more than "
                    + "renderers draw")
        }
        let svg = plot.svg
        if !replacing.force, let problem = OutputPath.existing(out, option: "--out") {
            printError("timerdeck plot: \(problem)")
            throw ExitCode(2)
        }
        // "x": a file made since the check above is refused too, never overwritten.
        guard let file = fopen(out, replacing.force ? "w" : "wx") else {
            printError("timerdeck plot: cannot write \(out): \(String(cString: strerror(errno)))")
            throw ExitCode(2)
        }
        let written = fputs(svg, file)
        guard fclose(file) == 0, written >= 0 else {
            printError("timerdeck plot: writing \(out) failed: \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
    }
}
