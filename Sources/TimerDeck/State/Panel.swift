/// The panels that take focus, in `Tab` order.
enum Panel: Int, CaseIterable, Sendable {
    case countdowns, ticker, inspector, log, uploads

    /// The part of the screen the panel occupies.
    var part: ViewParts {
        switch self {
        case .countdowns: .countdowns
        case .ticker: .ticker
        case .inspector: .inspector
        case .log: .log
        case .uploads: .uploads
        }
    }
}
