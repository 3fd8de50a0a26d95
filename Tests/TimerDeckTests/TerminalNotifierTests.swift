import TerminalUI
import Testing
import TimerDeck

@Suite("The terminal's notifications: the environment's choice, refined by kitty's capability query")
struct TerminalNotifierTests {
    static let answer = "99;i=timerdeck-query:p=?;a=focus:o=always:p=title,body,?"

    @Test("The query goes out to kitty and foot outside tmux only; other terminals are not asked")
    func whoIsAsked() throws {
        #expect(TerminalNotifier(environment: ["KITTY_WINDOW_ID": "1"])?.query == KittyNotificationSupport.query)
        #expect(TerminalNotifier(environment: ["TERM": "foot"])?.query == KittyNotificationSupport.query)
        #expect(
            TerminalNotifier(environment: ["KITTY_WINDOW_ID": "1", "TMUX": "/tmp/tmux-0/default,1,0"])?.query == nil)
        #expect(TerminalNotifier(environment: ["TERM_PROGRAM": "WezTerm"])?.query == nil)
        #expect(TerminalNotifier(environment: ["TERM": "xterm-256color"]) == nil)
    }

    @Test("foot that answers is sent OSC 99 from then on; one that does not keeps OSC 777")
    func footAnswering() throws {
        var answered = try #require(TerminalNotifier(environment: ["TERM": "foot"]))
        let silent = answered
        let accepted = answered.receive(Self.answer)
        #expect(accepted)
        #expect(answered.kind == .osc99)
        #expect(
            answered.sequence(title: "tea", body: "tea ended")
                == "\u{1B}]99;i=timerdeck:d=0;tea\u{1B}\\\u{1B}]99;i=timerdeck:d=1:p=body;tea ended\u{1B}\\")
        #expect(silent.sequence(title: "tea", body: "tea ended") == "\u{1B}]777;notify;tea;tea ended\u{07}")
    }

    @Test("Another OSC string is no answer, and a terminal not asked takes none")
    func otherReplies() throws {
        var kitty = try #require(TerminalNotifier(environment: ["KITTY_WINDOW_ID": "1"]))
        let othersAnswer = kitty.receive("99;i=someone-else:p=?;p=title")
        #expect(!othersAnswer)
        #expect(kitty.support == nil)
        var wezterm = try #require(TerminalNotifier(environment: ["TERM_PROGRAM": "WezTerm"]))
        let unasked = wezterm.receive(Self.answer)
        #expect(!unasked)
        #expect(wezterm.kind == .osc9)
    }
}
