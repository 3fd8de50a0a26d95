/// One top-level entry of the config file as TOML wrote it: a `[section]` table, or the tables of
/// an array written as `[[section]]` headers (only `[[timers]]` is accepted).
enum ConfigSection: Decodable {
    case table([String: ConfigValue])
    case tables([[String: ConfigValue]])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each `try?` asks "is it this shape?"; an entry of neither rethrows the table's error,
        // which names the misplaced value.
        if let tables = try? container.decode([[String: ConfigValue]].self) {
            self = .tables(tables)
        } else {
            self = .table(try container.decode([String: ConfigValue].self))
        }
    }
}
