import TerminalUI

/// The keys a config's `[keys]` table moved (`quit = "Q"`), over the default keymap: a bound key
/// stands for its action's default key, and a default key whose action moved does nothing.
///
/// ```swift
/// let keys = try KeyBindings([.quit: "Q"])
/// keys.translate(.character("Q"))   // .character("q")
/// keys.translate(.character("q"))   // nil
/// ```
struct KeyBindings: Equatable, Sendable {
    /// Two actions on one key.
    struct Conflict: Error, Equatable {
        var first: KeyAction
        var second: KeyAction
        var key: Character
        /// Whether `second` has the key by default (it was not bound in the config).
        var secondByDefault: Bool
    }

    /// The actions the config bound, with their keys.
    let bound: [KeyAction: Character]

    /// No action moved.
    init() {
        bound = [:]
    }

    /// `bound` over the defaults; two actions on one key are a ``Conflict``.
    init(_ bound: [KeyAction: Character]) throws(Conflict) {
        self.bound = bound
        var owner: [Character: KeyAction] = [:]
        // Bound actions first (in the order they are declared), so a conflict names the bound one.
        let actions = KeyAction.allCases.filter { bound[$0] != nil } + KeyAction.allCases.filter { bound[$0] == nil }
        for action in actions {
            let key = self.key(of: action)
            if let first = owner[key] {
                throw Conflict(first: first, second: action, key: key, secondByDefault: bound[action] == nil)
            }
            owner[key] = action
        }
    }

    /// The key `action` has now.
    func key(of action: KeyAction) -> Character { bound[action] ?? action.defaultKey }

    /// `key` as the default keymap knows it: a bound key becomes its action's default key, the
    /// default key of a moved action `nil`; every other key is itself.
    func translate(_ key: Key) -> Key? {
        guard !bound.isEmpty, case .character(let character) = key else { return key }
        if let action = bound.first(where: { $0.value == character })?.key { return .character(action.defaultKey) }
        if bound.keys.contains(where: { $0.defaultKey == character }) { return nil }
        return key
    }

    /// The help overlay's lines for the moved keys, in the keymap's order: `Q  quit (was q)`.
    var helpLines: [String] {
        KeyAction.allCases.compactMap { action in
            bound[action].map { key in
                let name = KeyAction.name(of: key)
                return name + String(repeating: " ", count: max(18 - name.count, 1))
                    + "\(action.rawValue) (was \(KeyAction.name(of: action.defaultKey)))"
            }
        }
    }
}
