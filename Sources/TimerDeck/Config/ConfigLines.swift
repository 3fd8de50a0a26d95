/// The shape every line of a config file must have before TOMLKit's parser sees it.
///
/// toml++ (inside TOMLKit) checks some malformed input with assertions rather than errors, so a
/// typo could stop the process. Instead of refusing the inputs known to do that, this admits only
/// the small part of TOML a config needs, line by line: blank lines and comments, `[section]` and
/// `[[section]]` (array of tables) headers with a plain name, and `key = value` where the value is a quoted string, a number,
/// `true` or `false`, optionally followed by a comment. Everything else is refused with its line
/// number and what is accepted.
enum ConfigLines {
    /// Throws for the first line that is not of an accepted shape.
    static func check(_ text: String, source: String) throws(ConfigError) {
        // Lines as TOML counts them: LF or CRLF only.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, line) in lines.enumerated() {
            if let problem = problem(in: Array(line.unicodeScalars)) {
                throw ConfigError(message: "\(source):\(index + 1): \(problem)")
            }
        }
    }

    /// What is wrong with one line, or `nil` when it is accepted.
    static func problem(in line: [Unicode.Scalar]) -> String? {
        if line.contains("\0") { return "contains a NUL byte; a config file is plain UTF-8 text" }
        var position = skipBlanks(line, from: 0)
        guard position < line.count, line[position] != "#" else { return nil }
        if line[position] == "[" {
            // `[[name]]`: the brackets are written together, as TOML requires.
            let isArray = position + 1 < line.count && line[position + 1] == "["
            position = skipBlanks(line, from: position + (isArray ? 2 : 1))
            let nameEnd = skipName(line, from: position)
            guard nameEnd > position else {
                return "a section header needs a plain name, e.g. [uploads] or [[timers]] (letters, digits, _ or -)"
            }
            position = skipBlanks(line, from: nameEnd)
            let closing = isArray ? 2 : 1
            guard position + closing <= line.count, line[position..<position + closing].allSatisfy({ $0 == "]" }) else {
                return "a section header is [name] or [[name]] with a plain name, e.g. [uploads] or [[timers]]"
            }
            return restIsComment(line, from: position + closing)
        }
        let keyEnd = skipName(line, from: position)
        guard keyEnd > position else {
            return "expected a field as name = value (a plain name of letters, digits, _ or -), or a [section]"
        }
        position = skipBlanks(line, from: keyEnd)
        guard position < line.count, line[position] == "=" else {
            let name = String(String.UnicodeScalarView(line[..<keyEnd].drop(while: isBlank)))
            return "expected '=' after the field name \(UserText.quote(name))"
        }
        position = skipBlanks(line, from: position + 1)
        guard let valueEnd = skipValue(line, from: position) else {
            return "a value is a quoted string (\"…\"), a whole number, true or false"
        }
        return restIsComment(line, from: valueEnd)
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": true
        default: false
        }
    }

    private static func skipBlanks(_ line: [Unicode.Scalar], from start: Int) -> Int {
        var position = start
        while position < line.count, isBlank(line[position]) { position += 1 }
        return position
    }

    private static func skipName(_ line: [Unicode.Scalar], from start: Int) -> Int {
        var position = start
        while position < line.count, isNameScalar(line[position]) { position += 1 }
        return position
    }

    /// Nothing but blanks and a comment after `start`.
    private static func restIsComment(_ line: [Unicode.Scalar], from start: Int) -> String? {
        let position = skipBlanks(line, from: start)
        guard position < line.count, line[position] != "#" else { return nil }
        return "unexpected \(UserText.quote(String(String.UnicodeScalarView(line[position...])))) after the value; "
            + "a comment starts with #"
    }

    /// The end of the value starting at `start`, or `nil` if none of the accepted forms starts there.
    private static func skipValue(_ line: [Unicode.Scalar], from start: Int) -> Int? {
        guard start < line.count else { return nil }
        switch line[start] {
        case "\"", "'": return skipString(line, from: start)
        case "t", "f": return skipWord(line, from: start)
        default: return skipNumber(line, from: start)
        }
    }

    /// A string on one line between `quote`s (`"…"` with backslash escapes, `'…'` without);
    /// a multi-line opener (three quotes) and control characters other than tab are refused.
    private static func skipString(_ line: [Unicode.Scalar], from start: Int) -> Int? {
        let quote = line[start]
        var position = start + 1
        guard !(position + 1 < line.count && line[position] == quote && line[position + 1] == quote) else { return nil }
        while position < line.count {
            let scalar = line[position]
            if scalar == quote { return position + 1 }
            if scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F { return nil }
            position += quote == "\"" && scalar == "\\" ? 2 : 1
        }
        return nil
    }

    /// `true` or `false`.
    private static func skipWord(_ line: [Unicode.Scalar], from start: Int) -> Int? {
        for word in ["true", "false"] {
            let scalars = Array(word.unicodeScalars)
            if line.count - start >= scalars.count, Array(line[start..<start + scalars.count]) == scalars {
                return start + scalars.count
            }
        }
        return nil
    }

    /// A decimal number: optional sign, digits (with `_`), an optional fraction and exponent.
    private static func skipNumber(_ line: [Unicode.Scalar], from start: Int) -> Int? {
        var position = start
        if line[position] == "+" || line[position] == "-" { position += 1 }
        let digitsStart = position
        position = skipDigits(line, from: position)
        guard position > digitsStart else { return nil }
        if position < line.count, line[position] == "." {
            let fractionStart = position + 1
            position = skipDigits(line, from: fractionStart)
            guard position > fractionStart else { return nil }
        }
        if position < line.count, line[position] == "e" || line[position] == "E" {
            position += 1
            if position < line.count, line[position] == "+" || line[position] == "-" { position += 1 }
            let exponentStart = position
            position = skipDigits(line, from: exponentStart)
            guard position > exponentStart else { return nil }
        }
        return position
    }

    private static func skipDigits(_ line: [Unicode.Scalar], from start: Int) -> Int {
        var position = start
        while position < line.count, ("0"..."9").contains(line[position]) || line[position] == "_" { position += 1 }
        return position
    }
}
