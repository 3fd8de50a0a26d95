/// The shape every line of a config file must have before TOMLKit's parser sees it.
///
/// toml++ (inside TOMLKit) checks some malformed input with assertions rather than errors, so a
/// typo could stop the process. Instead of refusing the inputs known to do that, this admits only
/// the small part of TOML a config needs, line by line: blank lines and comments, `[section]` and
/// `[[section]]` (array of tables) headers with a plain name, and `key = value` where the value is a quoted string, a number,
/// `true` or `false`, optionally followed by a comment. Everything else is refused with its line
/// number, the field and what is accepted; the parts of TOML left out (multi-line strings, arrays,
/// inline tables, quoted and dotted keys, hexadecimal, octal and binary numbers, dates and times,
/// whole numbers beyond 64 bits) are each named as such.
enum ConfigLines {
    /// Throws for the first line that is not of an accepted shape, for a section opened twice and
    /// for a field set twice; returns where each section and field is written.
    static func check(_ text: String, source: String) throws(ConfigError) -> ConfigPlaces {
        // Lines as TOML counts them: LF or CRLF only.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        var places = ConfigPlaces(source: source)
        var section: (name: String, isArray: Bool)?
        /// The fields of the table being read, with their lines.
        var fieldsHere: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            let scalars = Array(line.unicodeScalars)
            let number = index + 1
            if let problem = problem(in: scalars, section: section?.name) {
                throw ConfigError(message: "\(places.at(number)): \(problem)")
            }
            if let header = header(of: scalars) {
                if let problem = places.problem(opening: header.name, isArray: header.isArray) {
                    throw ConfigError(message: "\(places.at(number)): \(problem)")
                }
                places.open(header.name, isArray: header.isArray, at: number)
                section = header
                fieldsHere = [:]
            } else if let key = key(of: scalars) {
                let field = section.map { "\($0.name).\(key)" } ?? key
                if let first = fieldsHere[key] {
                    throw ConfigError(
                        message:
                            "\(places.at(number)): field \(UserText.field(field)) is already set on line \(first); "
                            + "keep one of the two")
                }
                fieldsHere[key] = number
                places.set(field, at: number)
            }
        }
        return places
    }

    /// The section a header line opens, if the line is one, and whether it is `[[name]]`.
    private static func header(of line: [Unicode.Scalar]) -> (name: String, isArray: Bool)? {
        var position = skipBlanks(line, from: 0)
        guard position < line.count, line[position] == "[" else { return nil }
        let isArray = position + 1 < line.count && line[position + 1] == "["
        while position < line.count, line[position] == "[" || isBlank(line[position]) { position += 1 }
        return (String(String.UnicodeScalarView(line[position..<skipName(line, from: position)])), isArray)
    }

    /// The field a `name = value` line sets, if the line is one (an accepted line that is neither
    /// blank, a comment nor a header).
    private static func key(of line: [Unicode.Scalar]) -> String? {
        let position = skipBlanks(line, from: 0)
        let end = skipName(line, from: position)
        return end > position ? String(String.UnicodeScalarView(line[position..<end])) : nil
    }

    /// What is wrong with one line in `section` (`nil`: before any), or `nil` when it is accepted.
    static func problem(in line: [Unicode.Scalar], section: String? = nil) -> String? {
        if line.contains("\0") { return "contains a NUL byte; a config file is plain UTF-8 text" }
        var position = skipBlanks(line, from: 0)
        guard position < line.count, line[position] != "#" else { return nil }
        if line[position] == "[" {
            // `[[name]]`: the brackets are written together, as TOML requires.
            let isArray = position + 1 < line.count && line[position + 1] == "["
            position = skipBlanks(line, from: position + (isArray ? 2 : 1))
            let nameEnd = skipName(line, from: position)
            if nameEnd > position, nameEnd < line.count, line[nameEnd] == "." {
                return "dotted section names ([a.b]) are not supported: sections are [name] or [[name]], "
                    + "e.g. [uploads] or [[timers]]"
            }
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
        if line[position] == "\"" || line[position] == "'" {
            return
                "quoted keys (\"name\" = …) are not supported: write the field's plain name (letters, digits, _ or -)"
        }
        let keyEnd = skipName(line, from: position)
        guard keyEnd > position else {
            if line[position] == "\u{FEFF}" {
                return "a byte order mark (U+FEFF) stands where a field should; save the file as UTF-8 without one"
            }
            return "expected a field as name = value (a plain name of letters, digits, _ or -), or a [section]"
        }
        let key = String(String.UnicodeScalarView(line[position..<keyEnd]))
        let fullKey = section.map { "\($0).\(key)" } ?? key
        let field = "field \(UserText.field(fullKey))"
        if keyEnd < line.count, line[keyEnd] == "." {
            return "dotted keys (\(key).… = …) are not supported: write [\(key)] and one field per line below it"
        }
        position = skipBlanks(line, from: keyEnd)
        guard position < line.count, line[position] == "=" else {
            let name = String(String.UnicodeScalarView(line[..<keyEnd].drop(while: isBlank)))
            return "expected '=' after the field name \(UserText.quote(name))"
        }
        position = skipBlanks(line, from: position + 1)
        if let unsupported = unsupportedValue(line, from: position) { return "\(field): \(unsupported)" }
        guard let valueEnd = skipValue(line, from: position) else {
            return "\(field): a value is a quoted string (\"…\"), a whole number, true or false"
        }
        if let escape = badEscape(line[position..<valueEnd]) { return "\(field): \(escape)" }
        if let malformed = malformedNumber(line[position..<valueEnd]) { return "\(field): \(malformed)" }
        if let tooLarge = wholeNumberOutOfRange(line[position..<valueEnd], field: fullKey) { return tooLarge }
        return restIsComment(line, from: valueEnd)
    }

    /// What a value starting at `start` is when it is a part of TOML a config does not take, or `nil`.
    private static func unsupportedValue(_ line: [Unicode.Scalar], from start: Int) -> String? {
        let rest = String(String.UnicodeScalarView(line[min(start, line.count)...]))
        if rest.hasPrefix("\"\"\"") || rest.hasPrefix("\'\'\'") {
            return "multi-line strings (\"\"\" or \'\'\') are not supported: write the value on one line in \"…\""
        }
        if rest.hasPrefix("[") { return "arrays ([…]) are not supported: a field takes one value" }
        if rest.hasPrefix("{") {
            return "inline tables ({…}) are not supported: write a [section] with one field per line"
        }
        let unsigned = rest.first == "+" || rest.first == "-" ? rest.dropFirst() : Substring(rest)
        if ["0x", "0o", "0b"].contains(where: unsigned.hasPrefix) {
            return "hexadecimal, octal and binary numbers are not supported: write the number in decimal"
        }
        if ["inf", "nan"].contains(where: unsigned.hasPrefix) { return "inf and nan are not supported" }
        let digits = unsigned.prefix { ("0"..."9").contains($0) }
        if !digits.isEmpty, let next = unsigned.dropFirst(digits.count).first, next == "-" || next == ":" {
            return "dates and times are not supported: a time of day is a string, e.g. first_fire = \"07:30\""
        }
        return nil
    }

    /// Why `value`, a whole number, does not fit in 64 bits (which TOML's parser cannot read), or `nil`
    /// (and for other values): what `field` accepts when it is known, the 64-bit range otherwise.
    private static func wholeNumberOutOfRange(_ value: ArraySlice<Unicode.Scalar>, field: String) -> String? {
        let text = String(String.UnicodeScalarView(value)).filter { $0 != "_" }
        guard !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), text.first != "\"", text.first != "'",
            text != "true", text != "false", Int64(text) == nil
        else { return nil }
        // Digits as written, as other numbers are shown; a very long number cut like a string.
        let shown = text.count <= UserText.shownCharacters ? text : UserText.quote(text)
        if let accepted = Config.fieldsByKey[field]?.accepted ?? TimerDefinition.fieldsByKey[field]?.accepted {
            return ConfigError.invalidValue(field, shown, accepted: accepted)
        }
        return "field \(UserText.field(field)): \(UserText.quote(text)) is too large for a whole number "
            + "(accepted: \(Int64.min)…\(Int64.max))"
    }

    /// The first escape TOML does not have in `value`, a `"…"` string as ``skipString(_:from:)``
    /// takes it, with the ones it has, or `nil` (and for other values).
    private static func badEscape(_ value: ArraySlice<Unicode.Scalar>) -> String? {
        guard value.first == "\"" else { return nil }
        var position = value.startIndex + 1
        while position < value.endIndex - 1 {
            guard value[position] == "\\" else {
                position += 1
                continue
            }
            let letter = value[position + 1]
            let digits = letter == "u" ? 4 : letter == "U" ? 8 : 0
            let hex = value[(position + 2)...].prefix(digits)
            let length: Int
            if "btnfr\"\\".unicodeScalars.contains(letter) {
                length = 2
            } else if digits > 0, hex.count == digits, hex.allSatisfy(\.properties.isASCIIHexDigit),
                let code = UInt32(String(String.UnicodeScalarView(hex)), radix: 16), Unicode.Scalar(code) != nil
            {
                length = 2 + digits
            } else {
                let shown = String(
                    String.UnicodeScalarView(value[position..<min(position + 2 + digits, value.endIndex - 1)]))
                return "the escape \(shown) is not one TOML has (accepted: \\\\, \\\", \\t, \\n, \\r, "
                    + "\\b, \\f, \\uXXXX or \\UXXXXXXXX naming a Unicode scalar); write a backslash as \\\\ or the "
                    + "value in '…'"
            }
            position += length
        }
        return nil
    }

    /// Why `value`, a number as ``skipNumber(_:from:)`` takes it, is not one TOML reads, or `nil`
    /// (and for other values): a `_` not between two digits, or a whole part with a leading zero.
    private static func malformedNumber(_ value: ArraySlice<Unicode.Scalar>) -> String? {
        let text = String(String.UnicodeScalarView(value))
        guard let first = text.first, first != "\"", first != "'", first != "t", first != "f" else { return nil }
        let unsigned = first == "+" || first == "-" ? text.dropFirst() : Substring(text)
        let groups = unsigned.split(omittingEmptySubsequences: false) { $0 == "." || $0 == "e" || $0 == "E" }
            .map { $0.first == "+" || $0.first == "-" ? $0.dropFirst() : $0 }
        let wholePart = groups.first?.filter { $0 != "_" } ?? ""
        guard
            groups.contains(where: { $0.first == "_" || $0.last == "_" || $0.contains("__") })
                || (wholePart.count > 1 && wholePart.first == "0")
        else { return nil }
        return "\(UserText.quote(text)) is not a number as TOML writes it: a _ stands only between two digits "
            + "(1_000) and a whole number has no leading zero"
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
