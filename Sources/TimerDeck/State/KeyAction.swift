/// An action a `[keys]` table may move to another key, named as the config names it, with the key
/// the default keymap (``Keymap``) gives it.
enum KeyAction: String, CaseIterable, Sendable {
    case startStop = "start-stop"
    case pause, mode, fire, invalidate, track, help, quit
    case slowLoad = "slow-load"
    case frameUp = "frame-up"
    case frameDown = "frame-down"
    case scrollUp = "scroll-up"
    case scrollDown = "scroll-down"
    case modal
    case modalCommon = "modal-common"
    case write, add, delete
    case pauseAll = "pause-all"
    case step, slower, faster, sleep
    case wallBack = "wall-back"
    case wallForward = "wall-forward"
    case panels, lab, phases, timeline

    /// Its key in the default keymap.
    var defaultKey: Character {
        switch self {
        case .startStop: "s"
        case .pause: "p"
        case .mode: "m"
        case .fire: "f"
        case .invalidate: "x"
        case .track: "t"
        case .help: "?"
        case .quit: "q"
        case .slowLoad: "l"
        case .frameUp: "+"
        case .frameDown: "-"
        case .scrollUp: "k"
        case .scrollDown: "j"
        case .modal: "M"
        case .modalCommon: "C"
        case .write: "W"
        case .add: "a"
        case .delete: "d"
        case .pauseAll: " "
        case .step: "."
        case .slower: "<"
        case .faster: ">"
        case .sleep: "z"
        case .wallBack: "w"
        case .wallForward: "e"
        case .panels: "1"
        case .lab: "2"
        case .phases: "3"
        case .timeline: "4"
        }
    }

    /// A key as the config and the help write it: the character, or `space`.
    static func name(of key: Character) -> String { key == " " ? "space" : String(key) }
}
