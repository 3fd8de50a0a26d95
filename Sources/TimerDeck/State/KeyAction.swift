/// An action a `[keys]` table may move to another key, named as the config names it, with the key
/// the default keymap gives it and the command it stands for. ``Keymap/lines`` lists them in the
/// help with the keys they have.
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
    case write, add, delete, undo
    case pauseAll = "pause-all"
    case step, slower, faster, sleep
    case wallBack = "wall-back"
    case wallForward = "wall-forward"
    case panels, lab, phases, timeline
    case lap, laps
    case exportLaps = "export-laps"
    case report
    case bigDigits = "big-digits"

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
        case .undo: "u"
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
        case .lap: "L"
        case .laps: "v"
        case .exportLaps: "E"
        case .report: "r"
        case .bigDigits: "5"
        }
    }

    /// Another key for the action while it keeps its default key and no other action has it.
    var alias: Character? { self == .frameUp ? "=" : nil }

    /// What its key asks the dashboard to do.
    var command: Command {
        switch self {
        case .startStop: .startOrStop
        case .pause: .suspendOrResume
        case .mode: .moveMode
        case .fire: .fireNow
        case .invalidate: .invalidate
        case .track: .toggleTrackingHold
        case .help: .toggleHelp
        case .quit: .quit
        case .slowLoad: .toggleSlowLoad
        case .frameUp: .frameIntervalUp
        case .frameDown: .frameIntervalDown
        case .scrollUp: .scroll(lines: -1)
        case .scrollDown: .scroll(lines: 1)
        case .modal: .toggleModal
        case .modalCommon: .makeModalCommon
        case .write: .writeTimers
        case .add: .addTimer
        case .delete: .deleteTimer
        case .undo: .undoDelete
        case .pauseAll: .time(.togglePause)
        case .step: .time(.step)
        case .slower: .time(.slower)
        case .faster: .time(.faster)
        case .sleep: .time(.sleep)
        case .wallBack: .time(.jumpWall(hours: -1))
        case .wallForward: .time(.jumpWall(hours: 1))
        case .panels: .show(.panels)
        case .lab: .show(.lab)
        case .phases: .show(.phases)
        case .timeline: .show(.timeline)
        case .lap: .lap
        case .laps: .toggleLaps
        case .exportLaps: .exportLaps
        case .report: .report
        case .bigDigits: .show(.bigDigits)
        }
    }

    /// A key as the config and the help write it: the character, or `space`.
    static func name(of key: Character) -> String { key == " " ? "space" : String(key) }
}
