import Testing

@testable import TerminalUI

@Suite("Text fitted to a width")
struct TextFitTests {
    @Test("Text too long is cut after a whole word with an ellipsis; a long path mid-word")
    func truncation() {
        #expect(TextFit.truncate("no connection: refused by the server", to: 24) == "no connection: refused…")
        #expect(TextFit.truncate("fits as it is", to: 13) == "fits as it is")
        #expect(TextFit.truncate("abc def ghi", to: 8) == "abc def…")
        #expect(TextFit.truncate("dir ~/.local/state/timerdeck/uploads", to: 20) == "dir ~/.local/state/…")
        #expect(CharacterWidth.of(TextFit.truncate("日本語のテキストです", to: 7)) <= 7)
        #expect(TextFit.truncate("anything", to: 0) == "")
    }
}

@Suite("TextFit.wrap")
struct TextWrapTests {
    @Test("Lines break between words; a word longer than a line breaks inside it")
    func wraps() {
        #expect(
            TextFit.wrap("no connection: refused by the server", to: 16) == [
                "no connection:", "refused by the", "server",
            ])
        #expect(TextFit.wrap("abcdefghij xy", to: 4) == ["abcd", "efgh", "ij", "xy"])
        #expect(TextFit.wrap("", to: 4) == [""])
    }
}
