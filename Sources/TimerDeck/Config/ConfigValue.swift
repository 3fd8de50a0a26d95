/// One value of the config file as TOML wrote it, before it is checked against its ``ConfigField``.
enum ConfigValue: Decodable, Equatable, CustomStringConvertible {
    case integer(Int)
    case flag(Bool)
    case text(String)
    case number(Double)
    /// A table, an array, a date or a time: never a valid setting.
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each `try?` asks "is it this type?"; a value of none of them is `.other`, which every
        // field refuses with a message, so no failure is hidden.
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .other
        }
    }

    /// The value as an error message shows it (a long string cut to a short prefix).
    var description: String {
        switch self {
        case .integer(let value): String(value)
        case .flag(let value): String(value)
        case .text(let value): UserText.quote(value)
        case .number(let value): String(value)
        case .other: "a table, array or date"
        }
    }
}
