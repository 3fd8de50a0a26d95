import Foundation
import Testing

/// Every rule, requirement and decision id cited in `Sources/` and `Tests/` resolves to a heading in
/// `Docs/` that starts with it, so a reader with only the repository can look each one up.
///
/// Forms recognised (one line at a time, in `.swift`, `.sh`, `.py`, `.c` and `.h` files):
/// - run loop rules `C-T6`, ranges `C-R1…C-R5` → `Docs/runloop-reference.md`, heading `C-T6 …`;
/// - sections `runloop-reference 1.4` → heading `1.4 …`; `runloop-reference item 1`, `section 0 item 5`
///   → heading `Item 1. …`;
/// - seed requirements `M2`, `seed G6`, `L2a`, ranges `seeds G1–G5` → `Docs/seed-semantics.md`;
///   `L1`–`L3` followed by "cache" is a CPU cache, not a citation;
/// - decisions `decisions.md 5`, `decisions 9`, `decision 7` → `Docs/decisions.md`, heading `5. …`;
/// - document names `decisions.md`, `ARCHITECTURE.md`, … → a file of that name in `Docs/`.
///
/// The suite also checks that `Docs/` explains every id the references define, each under one heading,
/// and that the links of its pages and of the README reach existing files and headings.
@Suite("Citations resolve to headings in Docs/")
struct CitationTests {
    /// Where a cited id must be explained.
    enum Document: String, CaseIterable {
        case runloopReference = "runloop-reference.md"
        case seedSemantics = "seed-semantics.md"
        case decisions = "decisions.md"
    }

    /// One citation found in a line of text.
    struct Citation: Hashable, CustomStringConvertible {
        var document: Document
        /// The heading key it needs: `C-T6`, `1.4`, `Item 1`, `M2`, `L2a`, `5`.
        var key: String

        var description: String {
            switch document {
            case .runloopReference: "\(key) → Docs/\(document.rawValue)"
            case .seedSemantics: "seed \(key) → Docs/\(document.rawValue)"
            case .decisions: "decision \(key) → Docs/\(document.rawValue)"
            }
        }
    }

    /// The repository: the directory above `Tests/`, wherever in it this file is.
    static let repositoryRoot: String = {
        let path = #filePath
        guard let tests = path.range(of: "/Tests/", options: .backwards) else { return "./" }
        return String(path[..<tests.lowerBound]) + "/"
    }()
    static let docsDirectory = repositoryRoot + "Docs/"
    /// Document names a citation may give; each must exist in `Docs/` under exactly that name.
    static let citableDocumentNames = [
        "runloop-reference", "seed-semantics", "decisions", "ARCHITECTURE", "performance-anchors",
    ]
    static let scannedExtensions: Set<String> = ["swift", "sh", "py", "c", "h"]

    /// Finds citations in a line. Swift regexes have no lookbehind, so each pattern takes the
    /// character before an id in a leading group to make sure the id starts a word.
    struct Scanner {
        let ruleCitation =
            #/
            (?: ^ | [^\w-] ) C- (?<family> [A-Z] ) (?<number> \d{1,3} )
            (?: \s* (?: … | \.\.\. | – ) \s* C- (?<rangeFamily> [A-Z] ) (?<rangeEnd> \d{1,3} ) )?
            (?! \w )
            /#
        let sectionCitation =
            #/
            runloop-reference ,? \s+ (?: section \s+ )? (?<section> \d{1,2} \. \d{1,2} )
            /#
        let itemCitation =
            #/
            (?i) (?: runloop-reference ,? \s+ (?: section \s+ \d+ ,? \s+ )? | section \s+ 0 ,? \s+ )
            item \s+ (?<item> \d{1,2} )
            /#
        let seedCitation =
            #/
            (?: ^ | [^\w-] ) (?<family> [MTLDGS] ) (?<number> \d{1,2} ) (?<suffix> [a-e] )?
            (?: \s* (?: – | … ) \s* (?<rangeFamily> [MTLDGS] )? (?<rangeEnd> \d{1,2} ) )?
            (?! \w ) (?! \s+ cache )
            /#
        let decisionCitation =
            #/
            (?i) (?: ^ | \W ) decisions? (?: \.md )? ,? \s+ (?<number> \d{1,3} ) (?! \w )
            /#
        let documentCitation = #/(?<name>[A-Za-z-]+)\.md(?!\w)/#

        /// Every citation of a rule, section, item, seed requirement or decision in `line`, in order of kind.
        func citations(in line: Substring) -> [Citation] {
            var found: [Citation] = []
            for match in line.matches(of: ruleCitation) {
                let family = match.output.family
                let first = Int(match.output.number) ?? 0
                let last =
                    match.output.rangeEnd.flatMap { end in
                        match.output.rangeFamily == family ? Int(end) : nil
                    } ?? first
                for number in first...max(first, last) {
                    found.append(Citation(document: .runloopReference, key: "C-\(family)\(number)"))
                }
            }
            for match in line.matches(of: sectionCitation) {
                found.append(Citation(document: .runloopReference, key: String(match.output.section)))
            }
            for match in line.matches(of: itemCitation) {
                found.append(Citation(document: .runloopReference, key: "Item \(match.output.item)"))
            }
            for match in line.matches(of: seedCitation) {
                let family = match.output.family
                let first = Int(match.output.number) ?? 0
                if let suffix = match.output.suffix {
                    found.append(Citation(document: .seedSemantics, key: "\(family)\(first)\(suffix)"))
                    continue
                }
                let sameFamily = match.output.rangeFamily.map { $0 == family } ?? true
                let last = match.output.rangeEnd.flatMap { sameFamily ? Int($0) : nil } ?? first
                for number in first...max(first, last) {
                    found.append(Citation(document: .seedSemantics, key: "\(family)\(number)"))
                }
            }
            for match in line.matches(of: decisionCitation) {
                found.append(Citation(document: .decisions, key: String(match.output.number)))
            }
            return found
        }

        /// The documents `line` names by file name, e.g. `decisions.md`.
        func documentNames(in line: Substring) -> [String] {
            line.matches(of: documentCitation).compactMap { match in
                CitationTests.citableDocumentNames.contains(String(match.output.name)) ? "\(match.output.name).md" : nil
            }
        }
    }

    // MARK: Tests

    @Test("every id cited in Sources/ and Tests/ has a heading in Docs/ that starts with it")
    func everyCitationResolves() throws {
        let headings = try Self.headingKeys()
        let scanner = Scanner()
        var unresolved: [String] = []
        var citationCount = 0
        for path in try Self.scannedFiles() {
            let text = try String(contentsOfFile: Self.repositoryRoot + path, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for citation in scanner.citations(in: line) {
                    citationCount += 1
                    if !(headings[citation.document]?.contains(citation.key) ?? false) {
                        unresolved.append("\(path):\(index + 1): \(citation) has no heading")
                    }
                }
                for name in scanner.documentNames(in: line)
                where !FileManager.default.fileExists(atPath: Self.docsDirectory + name) {
                    unresolved.append("\(path):\(index + 1): \(name) is not in Docs/")
                }
            }
        }
        #expect(citationCount > 100, "the scanner found only \(citationCount) citations: is the pattern broken?")
        if !unresolved.isEmpty {
            let report = unresolved.joined(separator: "\n")
            print("Unresolved citations (\(unresolved.count)):\n\(report)")
            Issue.record(Comment(rawValue: "\(unresolved.count) unresolved citation(s):\n\(report)"))
        }
    }

    @Test("Docs/ explains every rule, requirement, decision, item and section of the references")
    func docsCoverEveryDefinedId() throws {
        let headings = try Self.headingKeys()
        var expected: [Document: [String]] = [:]
        let ruleCounts: [(String, Int)] = [
            ("M", 12), ("R", 13), ("B", 4), ("T", 11), ("G", 10), ("D", 4), ("P", 2), ("L", 2),
        ]
        expected[.runloopReference] =
            ruleCounts.flatMap { family, count in (1...count).map { "C-\(family)\($0)" } }
            + (1...10).map { "Item \($0)" } + ["0"] + (1...8).map { "1.\($0)" }
        let seedCounts: [(String, Int)] = [("M", 4), ("T", 5), ("L", 3), ("D", 4), ("G", 6), ("S", 3)]
        expected[.seedSemantics] =
            seedCounts.flatMap { family, count in (1...count).map { "\(family)\($0)" } }
            + ["a", "b", "c", "d", "e"].map { "L2\($0)" }
        expected[.decisions] = (1...13).map(String.init)
        for document in Document.allCases {
            let missing = expected[document, default: []].filter { !(headings[document]?.contains($0) ?? false) }
            #expect(missing.isEmpty, "Docs/\(document.rawValue) lacks headings for \(missing)")
        }
    }

    @Test("the scanner reads every citation form, expands ranges and ignores look-alikes")
    func scannerRecognisesCitationForms() {
        let line = """
            // C-T6 and C-R1…C-R3; seeds G1–G3, L2a, M2/M3; decisions.md 12, decision 7 (runloop-reference 1.4, \
            section 0 item 5); not ids: L2 cache, MC-T4, XM2, D3D3D3, 2026-01-01T00:00:00Z, S1x
            """
        let found = Scanner().citations(in: Substring(line))
        let expected: [Citation] = [
            .init(document: .runloopReference, key: "C-T6"),
            .init(document: .runloopReference, key: "C-R1"),
            .init(document: .runloopReference, key: "C-R2"),
            .init(document: .runloopReference, key: "C-R3"),
            .init(document: .runloopReference, key: "1.4"),
            .init(document: .runloopReference, key: "Item 5"),
            .init(document: .seedSemantics, key: "G1"),
            .init(document: .seedSemantics, key: "G2"),
            .init(document: .seedSemantics, key: "G3"),
            .init(document: .seedSemantics, key: "L2a"),
            .init(document: .seedSemantics, key: "M2"),
            .init(document: .seedSemantics, key: "M3"),
            .init(document: .decisions, key: "12"),
            .init(document: .decisions, key: "7"),
        ]
        #expect(found == expected)
        #expect(
            Scanner().documentNames(in: "see decisions.md 5 and ARCHITECTURE.md, not README.md") == [
                "decisions.md", "ARCHITECTURE.md",
            ])
    }

    @Test("no id is explained under two headings of the same document")
    func everyIdHasOneHeading() throws {
        for document in Document.allCases {
            let text = try String(contentsOfFile: Self.docsDirectory + document.rawValue, encoding: .utf8)
            let keys = text.split(separator: "\n").compactMap { Self.headingKey($0) }
                .filter { key in key.contains { $0.isNumber } }
            let repeated = Dictionary(grouping: keys) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
            #expect(repeated.isEmpty, "Docs/\(document.rawValue) explains \(repeated) more than once")
        }
    }

    @Test("every link of Docs/ and the README reaches an existing file, and a page's heading")
    func docsLinksResolve() throws {
        let pages =
            try FileManager.default.contentsOfDirectory(atPath: Self.docsDirectory)
            .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/\($0)" } + ["README.md"]
        var broken: [String] = []
        for page in pages {
            let text = try String(contentsOfFile: Self.repositoryRoot + page, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for match in line.matches(of: #/\]\((?<target>[^)\s]+)\)/#) {
                    let target = match.output.target
                    guard !target.hasPrefix("http") else { continue }
                    if let problem = Self.linkProblem(String(target), from: page) {
                        broken.append("\(page):\(index + 1): \(target): \(problem)")
                    }
                }
            }
        }
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    /// What is wrong with a link to `target` from the repository file `page`, or `nil`.
    static func linkProblem(_ target: String, from page: String) -> String? {
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        var components = page.split(separator: "/").dropLast().map(String.init)
        if parts[0].isEmpty {
            components = page.split(separator: "/").map(String.init)
        } else {
            for component in parts[0].split(separator: "/") {
                if component == ".." {
                    guard !components.isEmpty else { return "outside the repository" }
                    components.removeLast()
                } else if component != "." {
                    components.append(String(component))
                }
            }
        }
        let file = components.joined(separator: "/")
        guard let text = try? String(contentsOfFile: repositoryRoot + file, encoding: .utf8) else {
            return FileManager.default.fileExists(atPath: repositoryRoot + file) && parts.count == 1
                ? nil : "no file \(file)"
        }
        guard parts.count == 2 else { return nil }
        let anchors = Set(text.split(separator: "\n").compactMap { anchor(ofHeading: $0) })
        return anchors.contains(String(parts[1])) ? nil : "no heading #\(parts[1]) in \(file)"
    }

    @Test("a heading's key is its leading id: C-T6, 1.4, Item 3, L2a, 12")
    func headingKeysAreLeadingIds() {
        #expect(Self.headingKey("### C-T6 A repeating timer is rescheduled") == "C-T6")
        #expect(Self.headingKey("## 1.4 Run loop timers") == "1.4")
        #expect(Self.headingKey("## 0. Ten things") == "0")
        #expect(Self.headingKey("### Item 3. Foundation on Linux") == "Item 3")
        #expect(Self.headingKey("#### L2a. Block API with a weak capture") == "L2a")
        #expect(Self.headingKey("## 12. The SMS countdown") == "12")
        #expect(Self.headingKey("plain text") == nil)
        #expect(
            Self.anchor(ofHeading: "### C-M3 A new run loop: `{default}` as the set")
                == "c-m3-a-new-run-loop-default-as-the-set")
    }

    // MARK: Scanning

    /// The key of a Markdown heading: its first word without a trailing `.` or `:`, or `Item N`.
    static func headingKey(_ line: Substring) -> String? {
        guard line.hasPrefix("#") else { return nil }
        let words = line.drop { $0 == "#" }.split(separator: " ")
        guard let first = words.first else { return nil }
        func trimmed(_ word: Substring) -> String {
            var word = word
            while word.last == "." || word.last == ":" { word = word.dropLast() }
            return String(word)
        }
        if first == "Item", words.count > 1 { return "Item \(trimmed(words[1]))" }
        return trimmed(first)
    }

    /// The anchor a code host gives a Markdown heading: lower case, punctuation dropped, spaces as `-`.
    static func anchor(ofHeading line: Substring) -> String? {
        guard line.hasPrefix("#") else { return nil }
        let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
        let kept = title.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }
        return String(kept.map { $0 == " " ? "-" : $0 })
    }

    /// The heading keys of each document in `Docs/`.
    static func headingKeys() throws -> [Document: Set<String>] {
        var keys: [Document: Set<String>] = [:]
        for document in Document.allCases {
            let text = try String(contentsOfFile: docsDirectory + document.rawValue, encoding: .utf8)
            keys[document] = Set(text.split(separator: "\n").compactMap { headingKey($0) })
        }
        return keys
    }

    /// Repository-relative paths of the files to scan, sorted; this file is left out (its examples
    /// cite ids on purpose).
    static func scannedFiles() throws -> [String] {
        var paths: [String] = []
        for directory in ["Sources", "Tests"] {
            let base = repositoryRoot + directory
            guard let enumerator = FileManager.default.enumerator(atPath: base) else {
                throw CitationScanError(message: "cannot list \(base)")
            }
            while let relative = enumerator.nextObject() as? String {
                let path = "\(directory)/\(relative)"
                guard scannedExtensions.contains((relative as NSString).pathExtension),
                    !#filePath.hasSuffix(path)
                else { continue }
                paths.append(path)
            }
        }
        return paths.sorted()
    }

    /// A scan that could not start, with the path it could not read.
    struct CitationScanError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
