import Glibc
import Testing

@testable import TimerDeck

/// Full-screen golden snapshots: a headless screen compared cell for cell with a committed text
/// file under `Tests/TimerDeckTests/Snapshots`.
///
/// The files change only on purpose: `TIMERDECK_RECORD_SNAPSHOTS=1 swift test --filter Snapshot`
/// writes them from the current screens (then review the diff and commit it). Without the variable
/// a missing or different file is a failure; CI never sets it.
enum GoldenScreen {
    /// The environment variable that records snapshots instead of comparing them.
    static let recordVariable = "TIMERDECK_RECORD_SNAPSHOTS"

    static var directory: String {
        String(#filePath.dropLast("GoldenScreen.swift".count)) + "Snapshots/"
    }

    static var isRecording: Bool {
        getenv(recordVariable).map { String(cString: $0) == "1" } ?? false
    }

    /// Compares `screen` with `Snapshots/<name>.txt` cell for cell (or records it).
    static func check(_ screen: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + name + ".txt"
        if isRecording {
            let written = write(screen + "\n", to: path)
            #expect(written, "cannot write \(path)", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? InputFile.read(path, role: "golden snapshot") else {
            Issue.record(
                "no golden snapshot \(path): record it with \(recordVariable)=1 swift test --filter Snapshot",
                sourceLocation: sourceLocation)
            return
        }
        if let difference = firstDifference(expected: expected.trimmingTrailingNewline, actual: screen) {
            Issue.record(
                """
                \(name): \(difference)
                --- actual screen ---
                \(screen)
                (if the change is intended: \(recordVariable)=1 swift test --filter Snapshot, then review the diff)
                """, sourceLocation: sourceLocation)
        }
    }

    /// The first cell that differs, by row and column (1-based), with both lines; `nil` when equal.
    static func firstDifference(expected: String, actual: String) -> String? {
        let expectedRows = expected.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
        let actualRows = actual.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
        for row in 0..<max(expectedRows.count, actualRows.count) {
            let want = row < expectedRows.count ? expectedRows[row] : nil
            let got = row < actualRows.count ? actualRows[row] : nil
            guard want != got else { continue }
            let column = zip(want ?? [], got ?? []).prefix { $0 == $1 }.count
            let show = { (line: [Character]?) in line.map { String($0) } ?? "(no such row)" }
            return "row \(row + 1), column \(column + 1) differs\n  expected: \(show(want))\n  actual:   \(show(got))"
        }
        return nil
    }

    private static func write(_ text: String, to path: String) -> Bool {
        guard let file = fopen(path, "w") else { return false }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        return fwrite(bytes, 1, bytes.count, file) == bytes.count
    }
}

extension String {
    var trimmingTrailingNewline: String {
        hasSuffix("\n") ? String(dropLast()) : self
    }
}
