import TerminalUI

/// The keys a config's `[keys]` table moved (`quit = "Q"`), over the default keys: each key is
/// mapped once, to the action that has it now, and the default key of a moved action does nothing.
///
/// ```swift
/// let keys = try KeyBindings([.quit: "Q"])
/// keys.action(for: "Q")   // .quit
/// keys.action(for: "q")   // nil
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
    /// Every key that means an action, with the action.
    private let actions: [Character: KeyAction]

    /// No action moved.
    init() {
        self = Self.defaults
    }

    /// The default keys, which never conflict.
    private static let defaults: KeyBindings = {
        do { return try KeyBindings([:]) } catch { preconditionFailure("the default keys conflict: \(error)") }
    }()

    /// `bound` over the defaults; two actions on one key are a ``Conflict``.
    init(_ bound: [KeyAction: Character]) throws(Conflict) {
        self.bound = bound
        var owner: [Character: KeyAction] = [:]
        // Bound actions first (in the order they are declared), so a conflict names the bound one.
        let actions = KeyAction.allCases.filter { bound[$0] != nil } + KeyAction.allCases.filter { bound[$0] == nil }
        for action in actions {
            let key = bound[action] ?? action.defaultKey
            if let first = owner[key] {
                throw Conflict(first: first, second: action, key: key, secondByDefault: bound[action] == nil)
            }
            owner[key] = action
        }
        for action in KeyAction.allCases where bound[action] == nil {
            if let alias = action.alias, owner[alias] == nil { owner[alias] = action }
        }
        self.actions = owner
    }

    /// The key `action` has now.
    func key(of action: KeyAction) -> Character { bound[action] ?? action.defaultKey }

    /// The action `key` stands for, if any.
    func action(for key: Character) -> KeyAction? { actions[key] }
}
