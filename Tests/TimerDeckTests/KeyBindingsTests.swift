import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck

/// `[keys]` in the config: actions moved to other keys, checked like every field.
@Suite("Key bindings from the config")
struct KeyBindingsTests {
    @Test("A moved action takes its new key, its old key does nothing, and the help and status bar show the binding")
    func movedKeys() throws {
        let config = try Config.parse("[keys]\nquit = \"Q\"\npause-all = \"P\"\nfire = \"space\"\n")
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        _ = state.apply(.launch)
        _ = state.apply(.key(.character("q")))
        #expect(!state.quitRequested)
        #expect(state.hint == "key q does nothing here — press ? for help")
        #expect(state.keys.action(for: "P") == .pauseAll)
        #expect(state.keys.action(for: " ") == .fire)
        #expect(state.keys.action(for: "f") == nil)
        #expect(state.helpLines.contains("Q                 quit"))
        #expect(state.helpLines.contains("space             fire it now (sampler, uploader: sample, upload now)"))
        _ = state.apply(.key(.escape))
        let screen = GridScreen(size: Size(width: 120, height: 1))
        StatusBar.draw(
            DashboardSnapshot(
                state: state,
                loop: LoopStatus(mode: .default, depth: 1, commonModes: [.default], now: .zero, startTime: .zero),
                readings: [:]),
            on: screen.canvas)
        #expect(
            screen.snapshot().hasPrefix(
                " ⏎ press  s start/stop  p pause  m mode  space fire  x invalidate  ? keys  Q quit"))
        #expect(state.apply(.key(.character("Q"))).contains(.quit))
    }

    @Test(
        "An unknown action, a value that is not one key, and two actions on one key are errors naming them",
        arguments: [
            (
                "[keys]\nexplode = \"X\"\n",
                "c.toml:2: unknown action 'keys.explode' (known: keys.start-stop, keys.pause, keys.mode, keys.fire,"
            ),
            (
                "[keys]\nquitt = \"X\"\n",
                "c.toml:2: unknown action 'keys.quitt'; did you mean 'keys.quit'? (known: keys.start-stop,"
            ),
            (
                "[keys]\nquit = \"QQ\"\n",
                "c.toml:2: field 'keys.quit' = \"QQ\" is invalid (accepted: one character, e.g. \"Q\", or \"space\")"
            ),
            (
                "[keys]\nquit = \"s\"\n",
                "c.toml:2: keys.quit = \"s\" conflicts with start-stop, its key by default (bind keys.start-stop to another key) (accepted: a key no other action has)"
            ),
            (
                "[keys]\nquit = \"Q\"\nfire = \"Q\"\n",
                "c.toml:3: keys.fire = \"Q\" conflicts with keys.quit (accepted: a key no other action has)"
            ),
        ])
    func refused(text: String, expected: String) {
        #expect(parseConfigError(text).hasPrefix(expected), "\(parseConfigError(text))")
    }

    @Test("= is + while the frame-up key is not moved and = is free")
    func alias() throws {
        #expect(KeyBindings().action(for: "=") == .frameUp)
        #expect(try KeyBindings([.frameUp: "]"]).action(for: "=") == nil)
        #expect(try KeyBindings([.quit: "="]).action(for: "=") == .quit)
    }

    @Test("Two actions may swap their keys")
    func swap() throws {
        let config = try Config.parse("[keys]\nstart-stop = \"p\"\npause = \"s\"\n")
        #expect(config.keys.action(for: "p") == .startStop)
        #expect(config.keys.action(for: "s") == .pause)
    }
}
