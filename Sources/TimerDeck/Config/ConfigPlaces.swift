/// Where each section and field of a config file is written, so a message can name its line
/// (`timerdeck.toml:12: field 'log.capacity' = 5 is invalid …`); ``ConfigLines/check(_:source:)``
/// finds them.
///
/// Places are no part of the settings: two configs with the same settings are equal wherever their
/// fields were written.
struct ConfigPlaces: Equatable, Sendable {
    /// The file as messages name it.
    let source: String
    /// The line of each section's first header, by name.
    private var headers: [String: (line: Int, isArray: Bool)] = [:]
    /// The line of each field of a `[section]`, by `section.key`; of a field above every section,
    /// by its key alone.
    private var fields: [String: Int] = [:]
    /// The lines of the fields of each `[[section]]` table, by section and then in the file's order, by
    /// key; the header's line under `""`.
    private var tables: [String: [[String: Int]]] = [:]
    /// The `[[section]]` whose latest table is being read, if the last header was one.
    private var current: String?
    /// The command-line option that replaced each field, by `section.key` (``Config/setUploads(_:fromOption:)``).
    private var options: [String: String] = [:]

    /// The places of a file named `source` (`config` for text that came from no file).
    init(source: String = "config") {
        self.source = source
    }

    static func == (lhs: ConfigPlaces, rhs: ConfigPlaces) -> Bool { true }

    /// `source:line`, or `source` alone without a line.
    func at(_ line: Int?) -> String {
        line.map { "\(source):\($0)" } ?? source
    }

    /// Where `key` (`section.key`) is set: `source:line`, or `source` when the file does not set it.
    func of(_ key: String) -> String { at(fields[key]) }

    /// The option that replaced the field `key` (`--upload-username`), or `nil` when the file's value stands.
    func option(of key: String) -> String? { options[key] }

    /// The field `key` replaced by the command-line option `option`.
    mutating func set(_ key: String, byOption option: String) { options[key] = option }

    /// The line of the header `[section]` or the first `[[section]]`.
    func header(_ section: String) -> Int? { headers[section]?.line }

    /// The line of `key` in the `index`-th `[[section]]` table, or of the table's header without `key`.
    func line(of key: String? = nil, table index: Int, in section: String) -> Int? {
        guard let table = tables[section], table.indices.contains(index) else { return nil }
        return key.flatMap { table[index][$0] } ?? table[index][""]
    }

    /// Why a header opening `section` cannot follow the ones above, or `nil`: a `[section]` is
    /// opened once, and a name is either one table or a list of `[[section]]` tables.
    func problem(opening section: String, isArray: Bool) -> String? {
        if let line = fields[section] {
            return "[\(section)] has the name of the value \(UserText.field(section)) on line \(line), which stands "
                + "above every section; every field belongs in one, e.g. [log] then capacity = 1000"
        }
        guard let first = headers[section] else { return nil }
        switch (first.isArray, isArray) {
        case (true, true): return nil
        case (false, false):
            return "section [\(section)] is already opened on line \(first.line); write all its fields under that "
                + "one [\(section)]"
        case (true, false):
            return
                "[\(section)] follows [[\(section)]] on line \(first.line); a name is one [\(section)] table or a list "
                + "of [[\(section)]] tables, not both"
        case (false, true):
            return "[[\(section)]] follows [\(section)] on line \(first.line); a name is one [\(section)] table or a "
                + "list of [[\(section)]] tables, not both"
        }
    }

    /// A header opening `section` on `line`.
    mutating func open(_ section: String, isArray: Bool, at line: Int) {
        if headers[section] == nil { headers[section] = (line, isArray) }
        if isArray { tables[section, default: []].append(["": line]) }
        current = isArray ? section : nil
    }

    /// `field` (`section.key`, or a key above every section) set on `line`.
    mutating func set(_ field: String, at line: Int) {
        if let current, let index = tables[current]?.indices.last {
            tables[current]?[index][String(field.dropFirst(current.count + 1))] = line
        } else {
            fields[field] = line
        }
    }
}
