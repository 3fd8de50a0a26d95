/// Parts of the screen that redraw independently.
struct ViewParts: OptionSet, Sendable {
    let rawValue: Int

    static let title = ViewParts(rawValue: 1 << 0)
    static let countdowns = ViewParts(rawValue: 1 << 1)
    static let ticker = ViewParts(rawValue: 1 << 2)
    static let inspector = ViewParts(rawValue: 1 << 3)
    static let log = ViewParts(rawValue: 1 << 4)
    static let status = ViewParts(rawValue: 1 << 5)
    static let uploads = ViewParts(rawValue: 1 << 6)
    static let help = ViewParts(rawValue: 1 << 7)
    static let all: ViewParts = [.title, .countdowns, .ticker, .inspector, .log, .status, .uploads, .help]
}
