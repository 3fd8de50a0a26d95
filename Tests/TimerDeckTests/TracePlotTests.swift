import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import TimerDeck
@testable import timerdeck

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The elements of an SVG document with their attributes, in document order.
private final class SVGElements: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    /// The `<text>` elements with their attributes and what they say, in document order.
    var texts: [(attributes: [String: String], text: String)] = []
    /// The timer of the lane being read, added to each element inside it as "lane".
    private var lane: String?
    /// Whether a `<text>` element is open.
    private var inText = false

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if name == "g", let timer = attributes["data-timer"] { lane = timer }
        var attributes = attributes
        if let lane { attributes["lane"] = lane }
        elements.append((name, attributes))
        if name == "text" {
            texts.append((attributes, ""))
            inText = true
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { texts[texts.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "g" { lane = nil }
        if name == "text" { inText = false }
    }

    static func parse(_ svg: String) throws -> SVGElements {
        let reader = SVGElements()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "the SVG is well-formed XML")
        return reader
    }
}

@Suite("timerdeck plot: a trace drawn as an SVG timeline")
struct TracePlotTests {
    /// Ten seconds: "beat" on time at 2 s and 10 s, late at 5 s (due at 4 s, two ticks); "gcd" at 1 s;
    /// a tracking run from 3 s to 6 s. The plot is 840 units wide from x = 140: 84 units a second.
    static let trace = """
        {"event":"fire","t_ns":1000000000,"timer":"gcd","mechanism":"dispatch","mode":"default","scheduled_ns":1000000000,"lateness_ns":0,"ticks":1,"depth":1}
        {"event":"fire","t_ns":2000000000,"timer":"beat","mechanism":"runloop","mode":"default","scheduled_ns":2000000000,"lateness_ns":0,"ticks":1,"depth":1}
        {"event":"nested-run","t_ns":3000000000,"mode":"tracking","depth":2}
        {"event":"fire","t_ns":5000000000,"timer":"beat","mechanism":"runloop","mode":"default","scheduled_ns":4000000000,"lateness_ns":1000000000,"ticks":2,"depth":1}
        {"event":"nested-run-end","t_ns":6000000000,"mode":"tracking","depth":2}
        {"event":"fire","t_ns":10000000000,"timer":"beat","mechanism":"runloop","mode":"default","scheduled_ns":10000000000,"lateness_ns":0,"ticks":1,"depth":1}

        """

    @Test("One lane per timer in the order of its first fire, a mark per fire at its time's x")
    func lanesAndMarks() throws {
        let svg = try SVGElements.parse(TracePlot(text: Self.trace, source: "t.jsonl").svg)
        let lanes = svg.elements.filter { $0.name == "g" }.compactMap { $0.attributes["data-timer"] }
        #expect(lanes == ["gcd", "beat"])
        let fires = svg.elements.filter { $0.attributes["class"] == "fire" }
        #expect(fires.map { $0.attributes["lane"] ?? "" } == ["gcd", "beat", "beat", "beat"])
        #expect(fires.map { $0.attributes["cx"] ?? "" } == ["224", "308", "560", "980"])
        #expect(fires.map { $0.attributes["cy"] ?? "" } == ["54", "82", "82", "82"])
    }

    @Test("A hook's end, a fire line with a note, is neither drawn nor counted as a fire")
    func hookEndIsNotAFire() throws {
        let hookEnd = """
            {"event":"fire","t_ns":2500000000,"timer":"beat","mechanism":"runloop","mode":"default","scheduled_ns":2500000000,"lateness_ns":0,"ticks":1,"depth":1,"note":"hook: exit 0"}

            """
        let plot = try TracePlot(text: Self.trace + hookEnd, source: "t.jsonl").svg
        let fires = try SVGElements.parse(plot).elements.filter { $0.attributes["class"] == "fire" }
        #expect(fires.count == 4)
        #expect(plot.contains("4 fires"))
    }

    @Test("C-T6: a late fire has a line back to its scheduled time and its ticks")
    func latenessIsDrawn() throws {
        let plot = try TracePlot(text: Self.trace, source: "t.jsonl").svg
        let late = try SVGElements.parse(plot).elements.filter { $0.attributes["class"] == "late" }
        #expect(late.count == 1)
        #expect(late.first?.attributes["x1"] == "476" && late.first?.attributes["x2"] == "560")
        #expect(plot.contains(">×2</text>"))
    }

    @Test("M2: a nested tracking run is a band from its start to its end")
    func nestedRunIsABand() throws {
        let bands = try SVGElements.parse(TracePlot(text: Self.trace, source: "t.jsonl").svg).elements
            .filter { $0.attributes["class"] == "band" }
        #expect(bands.count == 1)
        #expect(bands.first?.attributes["data-mode"] == "tracking")
        #expect(bands.first?.attributes["x"] == "392" && bands.first?.attributes["width"] == "252")
    }

    @Test("A move to another mode is a mark on the timer's lane at its time, named with the new mode")
    func moveIsMarked() throws {
        let trace =
            Self.trace + "{\"event\":\"mode\",\"t_ns\":7000000000,\"timer\":\"beat\",\"mode\":\"common\",\"depth\":1}\n"
        let moves = try SVGElements.parse(TracePlot(text: trace, source: "t.jsonl").svg).elements
            .filter { $0.attributes["class"] == "move" }
        #expect(moves.map(\.name) == ["path", "text"])
        #expect(moves.allSatisfy { $0.attributes["lane"] == "beat" })
        // x = 140 + 7 × 84 = 728, the lane's centre at y = 82: the diamond's top is 6 above it.
        #expect(moves.first?.attributes["d"]?.hasPrefix("M728 76 ") == true)
        #expect(moves.first?.attributes["data-t-ns"] == "7000000000")
    }

    @Test("G3: a simulated sleep is a dashed line across the lanes at its time, with its length")
    func sleepIsALine() throws {
        let trace = Self.trace + "{\"event\":\"sleep\",\"t_ns\":8000000000,\"sleep_ns\":30000000000,\"depth\":1}\n"
        let plot = try TracePlot(text: trace, source: "t.jsonl").svg
        let sleeps = try SVGElements.parse(plot).elements.filter { $0.attributes["class"] == "sleep" }
        #expect(sleeps.map(\.name) == ["line", "text"])
        // x = 140 + 8 × 84 = 812.
        #expect(sleeps.first?.attributes["x1"] == "812" && sleeps.first?.attributes["x2"] == "812")
        #expect(plot.contains(">slept 30.0s</text>"))
    }

    @Test("A fire is drawn late from a threshold the title names (1ms unless set), not for any lateness at all")
    func latenessThreshold() throws {
        let slightlyLate = """
            {"event":"fire","t_ns":3000050000,"timer":"gcd","mechanism":"dispatch","mode":"default","scheduled_ns":3000000000,"lateness_ns":50000,"ticks":1,"depth":1}

            """
        let trace = Self.trace + slightlyLate
        func fills(_ plot: TracePlot) throws -> [String] {
            try SVGElements.parse(plot.svg).elements.filter { $0.attributes["class"] == "fire" }
                .map { $0.attributes["fill"] ?? "" }
        }
        let byDefault = try TracePlot(text: trace, source: "t.jsonl")
        // gcd at 1 s, beat at 2 s, beat 1 s late at 5 s, beat at 10 s, gcd 50 µs late at 3 s.
        #expect(try fills(byDefault) == ["#1f77b4", "#1f77b4", "#1f77b4", "#d62728", "#1f77b4"])
        #expect(byDefault.svg.contains("5 fires, 1 late (late: 1ms or more behind schedule, plot --late)"))
        let strict = try TracePlot(text: trace, source: "t.jsonl", lateAfter: .zero)
        #expect(try fills(strict).filter { $0 == "#d62728" }.count == 2)
        #expect(strict.svg.contains("5 fires, 2 late (late: 0s or more behind schedule"))
        let lenient = try TracePlot(text: trace, source: "t.jsonl", lateAfter: .seconds(2))
        #expect(try fills(lenient).allSatisfy { $0 == "#1f77b4" })
        #expect(!lenient.svg.contains("class=\"late\""))
    }

    @Test("×N labels never run into each other: one that would is left out, and its fire's tooltip says it")
    func tickLabelsNeverMerge() throws {
        let close = """
            {"event":"fire","t_ns":7000000000,"timer":"beat","mechanism":"runloop","mode":"default","scheduled_ns":6000000000,"lateness_ns":1000000000,"ticks":8,"depth":1}
            {"event":"fire","t_ns":7020000000,"timer":"beat","mechanism":"runloop","mode":"default","scheduled_ns":7000000000,"lateness_ns":20000000,"ticks":2,"depth":1}
            {"event":"fire","t_ns":9000000000,"timer":"beat","mechanism":"runloop","mode":"default","scheduled_ns":8000000000,"lateness_ns":1000000000,"ticks":12,"depth":1}

            """
        let plot = try TracePlot(text: Self.trace + close, source: "t.jsonl").svg
        let labels = try SVGElements.parse(plot).elements.filter { $0.attributes["class"] == "ticks" }
            .compactMap { $0.attributes["x"].flatMap(Double.init) }
        // ×2 at 5 s, ×8 at 7 s, ×12 at 9 s; ×2 at 7.02 s would start 1.7 units after ×8.
        #expect(labels == [560, 728, 896])
        #expect(plot.contains("<title>beat at 7.0s, ×2 ticks, 20ms late</title>"))
    }

    @Test(
        "timerdeck plot reads a trace of any size as it goes (3 MB here; the 1 MiB cap is for configs and scripts)",
        .tags(.process), .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
    func largeTracePlots() throws {
        let scratch = try ScratchDirectory()
        let fires = (1...20_000).map { second in
            "{\"event\":\"fire\",\"t_ns\":\(second)000000000,\"timer\":\"beat\",\"mechanism\":\"runloop\","
                + "\"mode\":\"default\",\"scheduled_ns\":\(second)000000000,\"lateness_ns\":0,\"ticks\":1,\"depth\":1}\n"
        }
        let trace = try scratch.write(fires.joined(), to: "big.jsonl")
        let svg = scratch.path("big.svg").path
        let outcome = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["plot", trace, "--out", svg], timeout: .seconds(120))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("1 timers, 20000 fires"))
    }

    @Test("At most 1000 lanes, which renderers draw; the title counts the timers left out")
    func lanesAreCapped() throws {
        let trace = (0..<1_005).map { index in
            "{\"event\":\"fire\",\"t_ns\":\(index + 1),\"timer\":\"t\(index)\",\"ticks\":1}"
        }.joined(separator: "\n")
        let plot = try TracePlot(text: trace, source: "t.jsonl")
        #expect(plot.lanes.count == 1_000 && plot.undrawnTimers == 5)
        let svg = plot.svg
        #expect(svg.contains("timerdeck trace: 1005 timers (1000 drawn), 1005 fires"))
        #expect(
            try SVGElements.parse(svg).elements.filter { $0.name == "g" && $0.attributes["data-timer"] != nil }.count
                == 1_000)
    }

    @Test("An axis with round ticks and a legend")
    func axisAndLegend() throws {
        let plot = try TracePlot(text: Self.trace, source: "t.jsonl").svg
        let svg = try SVGElements.parse(plot)
        #expect(svg.elements.contains { $0.name == "g" && $0.attributes["class"] == "axis" })
        #expect(svg.elements.contains { $0.name == "g" && $0.attributes["class"] == "legend" })
        #expect(plot.contains(">2.0s</text>") && plot.contains(">10.0s</text>"))
    }

    @Test("Labels at the right edge end inside the image, and the axis starts at 0")
    func labelsStayInside() throws {
        let end = """
            {"event":"fire","t_ns":10000000000,"timer":"gcd","mechanism":"dispatch","mode":"default","scheduled_ns":9000000000,"lateness_ns":1000000000,"ticks":12,"depth":1}
            {"event":"mode","t_ns":10000000000,"timer":"beat","mode":"tracking","depth":1}
            {"event":"sleep","t_ns":10000000000,"sleep_ns":30000000000,"depth":1}

            """
        let svg = try SVGElements.parse(TracePlot(text: Self.trace + end, source: "t.jsonl").svg)
        for (attributes, text) in svg.texts {
            let x = try #require(attributes["x"].flatMap(Double.init))
            // Monospace: 0.6 em a character.
            let width = Double(text.count) * 0.6 * (attributes["font-size"].flatMap(Double.init) ?? 12)
            let right = attributes["text-anchor"] == "middle" ? x + width / 2 : x + width
            #expect(right <= 1_000, "\(text) ends at \(right)")
        }
        #expect(svg.texts.filter { $0.text == "×12" || $0.text == "tracking" || $0.text == "slept 30.0s" }.count == 3)
        let axis = svg.texts.filter { $0.attributes["text-anchor"] == "middle" }.map(\.text)
        #expect(axis == ["0", "1.0s", "2.0s", "3.0s", "4.0s", "5.0s", "6.0s", "7.0s", "8.0s", "9.0s", "10.0s"])
    }

    @Test("plot --late takes a value starting with -; a negative one is refused with what is accepted")
    func negativeLate() throws {
        let command = try TimerDeckCommand.parseAsRoot(["plot", "t.jsonl", "--out", "t.svg", "--late", "-1ms"])
        #expect((command as? PlotCommand)?.late == "-1ms")
        #expect(throws: ValidationError.self) { try PlotCommand.lateAfter("-1ms") }
        do {
            _ = try PlotCommand.lateAfter("-1ms")
        } catch {
            #expect(
                error.message == "option --late: \"-1ms\" is negative; a fire is late only after its scheduled time "
                    + "(accepted: a duration of 0 or more, e.g. 0ms for any lateness, 1ms, 50ms, 1s)")
        }
        #expect(try PlotCommand.lateAfter("0ms") == .zero)
        #expect(try PlotCommand.lateAfter("5ms") == .milliseconds(5))
    }

    @Test("plot --help gives the default of --late once")
    func lateDefaultOnce() {
        let help = TimerDeckCommand.helpMessage(for: PlotCommand.self, columns: 200)
        let late = help.split(separator: "\n").filter { $0.contains("--late") }
        #expect(late.count == 2, "the usage line and the option's")
        #expect(help.components(separatedBy: "default").count == 2, "\(help)")
        #expect(help.contains("(default: 1ms)"))
    }

    @Test("A broken trace line is named with what is wrong, never a trap")
    func brokenTraceIsAnError() {
        for (text, message) in [
            ("{\"event\":\"fire\"}", "t.jsonl:1: not a trace line"),
            ("\n{\"event\":\"nap\",\"t_ns\":1}", "t.jsonl:2: unknown event \"nap\""),
            ("{\"event\":\"fire\",\"t_ns\":-1,\"timer\":\"a\"}", "t.jsonl:1: t_ns and lateness_ns must be 0 or more"),
            ("{\"event\":\"fire\",\"t_ns\":1}", "t.jsonl:1: a \"fire\" line needs its \"timer\""),
            ("{\"event\":\"fire\",\"t_ns\":99999999999999999999999,\"timer\":\"a\"}", "t.jsonl:1: not a trace line"),
        ] {
            do {
                _ = try TracePlot(text: text, source: "t.jsonl")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.message.hasPrefix(message), "\(error.message)")
            }
        }
    }

    @Test("The README scene's pinned trace plots to an SVG that a real renderer (rsvg-convert) draws")
    func plotRendersWithRsvg() throws {
        let golden = try String(
            contentsOfFile: RepositoryFile.path("Tests/TimerDeckTests/Traces/readme-scene.jsonl"), encoding: .utf8)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let svgURL = directory.appendingPathComponent("timeline.svg")
        let pngURL = directory.appendingPathComponent("timeline.png")
        try TracePlot(text: golden, source: "readme-scene.jsonl").svg.write(
            to: svgURL, atomically: true, encoding: .utf8)
        let rendered = try ChildProcess.run("rsvg-convert", [svgURL.path, "-o", pngURL.path], timeout: .seconds(60))
        #expect(rendered.status == 0, "rsvg-convert renders the plot: \(rendered)")
        let png = try Data(contentsOf: pngURL)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG came out")
        #expect(png.count > 1_000)
    }
}
