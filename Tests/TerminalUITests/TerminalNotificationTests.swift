import TerminalUI
import Testing

@Suite("The terminal's own notification sequence, chosen from the environment it sets")
struct TerminalNotificationTests {
    @Test(
        "Each terminal's markers choose its sequence, inside tmux too; an unknown terminal has none",
        arguments: [
            (["KITTY_WINDOW_ID": "1", "TERM": "tmux-256color"], TerminalNotification.osc99),
            (["TERM": "xterm-kitty"], .osc99),
            (["ITERM_SESSION_ID": "w0t0p0:1"], .osc9), (["LC_TERMINAL": "iTerm2"], .osc9),
            (["TERM_PROGRAM": "WezTerm"], .osc9), (["GHOSTTY_RESOURCES_DIR": "/usr/share/ghostty"], .osc9),
            (["TERM": "foot"], .osc777), (["TERM": "rxvt-unicode-256color"], .osc777),
        ])
    func chosen(_ environment: [String: String], _ kind: TerminalNotification) {
        #expect(TerminalNotification(environment: environment) == kind)
    }

    @Test("xterm, the console, GNOME Terminal and an empty KITTY_WINDOW_ID choose none")
    func none() {
        for environment in [
            ["TERM": "xterm-256color"], ["TERM": "linux"], ["VTE_VERSION": "7600"], ["KITTY_WINDOW_ID": ""],
        ] {
            #expect(TerminalNotification(environment: environment) == nil, "\(environment)")
        }
    }

    @Test("The bytes of each, a control character or a field's separator in a text made a space")
    func bytes() {
        #expect(
            TerminalNotification.osc9.sequence(title: "tea", body: "tea ended", inTmux: false)
                == "\u{1B}]9;tea: tea ended\u{07}")
        #expect(
            TerminalNotification.osc777.sequence(title: "a;b", body: "x\u{07}y", inTmux: false)
                == "\u{1B}]777;notify;a b;x y\u{07}")
        #expect(
            TerminalNotification.osc99.sequence(title: "tea", body: "tea ended", inTmux: false)
                == "\u{1B}]99;i=timerdeck:d=0;tea\u{1B}\\\u{1B}]99;i=timerdeck:d=1:p=body;tea ended\u{1B}\\")
    }

    @Test("kitty's capability answer: its payloads and occasions; another OSC string or id is no answer")
    func kittyAnswer() throws {
        let support = try #require(
            KittyNotificationSupport(reply: "99;i=timerdeck-query:p=?;a=focus,report:o=always,unfocused:p=title,body,?")
        )
        #expect(support.payloads == ["title", "body", "?"])
        #expect(support.occasions == ["always", "unfocused"])
        for other in ["99;i=other:p=?;p=title", "99;i=timerdeck-query;p=title", "9;hello", "99;i=timerdeck-query:p=?"] {
            #expect(KittyNotificationSupport(reply: other) == nil, "\(other)")
        }
        #expect(KittyNotificationSupport.query == "\u{1B}]99;i=timerdeck-query:p=?;\u{1B}\\")
    }

    @Test("A terminal that takes no body gets one OSC 99 part, the title and the body together")
    func titleOnly() throws {
        let support = try #require(KittyNotificationSupport(reply: "99;i=timerdeck-query:p=?;p=title,?"))
        #expect(
            TerminalNotification.osc99.sequence(title: "tea", body: "tea ended", inTmux: false, kitty: support)
                == "\u{1B}]99;i=timerdeck;tea: tea ended\u{1B}\\")
    }

    @Test("Inside tmux: wrapped in its passthrough, each escape doubled")
    func wrappedForTmux() {
        #expect(
            TerminalNotification.osc9.sequence(title: "tea", body: "tea ended", inTmux: true)
                == "\u{1B}Ptmux;\u{1B}\u{1B}]9;tea: tea ended\u{07}\u{1B}\\")
    }
}
