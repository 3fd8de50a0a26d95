import ArgumentParser
import Glibc
import TimerDeck

/// `timerdeck plot TRACE --out FILE`: a `--trace` file drawn as an SVG timeline.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a --trace file as an SVG timeline: lanes, fires, lateness, nested runs, axis and legend.")

    @Argument(help: "The trace (JSON Lines, as timerdeck --trace writes it).", completion: .file())
    var trace: String

    @Option(help: "Where the SVG goes.", completion: .file())
    var out: String

    // Taken as text and checked here, so a bad value names what is accepted.
    @Option(
        help: "Draw a fire as late from this far behind its scheduled time on (e.g. 0ms: any lateness; default 1ms).")
    var late: String = DurationText.setting(TracePlot.defaultLateAfter)

    func run() throws {
        guard let lateAfter = DurationText.parse(late) else {
            printError(
                "timerdeck plot: option --late: \"\(late)\" is invalid (accepted: a duration such as 0ms, 1ms, 50ms, 1s)"
            )
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
        guard let file = fopen(out, "w") else {
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
