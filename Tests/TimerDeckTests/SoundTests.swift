import Foundation
import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck

/// `sound = true`: a beep through the first audio player installed, saying which one played.
@Suite("End sounds")
struct SoundTests {
    /// A one-shot 3 s timer "tea" with `sound = true`, on a virtual clock, trying `players`.
    @available(*, noasync)
    func runTea(players: [String]) throws -> DashboardDriver {
        try runOneShotTea(actions: "sound = true") { $0.soundPlayers = players }
    }

    @Test("sound = true and the a form's sound word are read; quiet turns it off")
    func soundIsASetting() throws {
        #expect(try Config.parse("[[timers]]\nname = \"tea\"\ninterval = \"1s\"\nsound = true").timers[0].actions.sound)
        #expect(try TimerDefinition.parse(line: "tea 3m countdown sound", taken: []).actions.sound)
        #expect(try !TimerDefinition.parse(line: "tea 3m countdown sound quiet", taken: []).actions.sound)
        #expect(try TimerDefinition.parse(line: "lunch 12:30 sound", taken: []).actions.sound)
        // Off unless asked for, also where the bell, the flash and the notification are on by default.
        #expect(try !TimerDefinition.parse(line: "tea 3m countdown", taken: []).actions.sound)
    }

    @Test("The beep is a WAV file of 0.3 s at 8 kHz, and the hook's environment carries it whole")
    func beepIsAWav() {
        let wav = EndSound.wav
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8) && Array(wav[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(wav.count == 44 + 2_400)
        #expect(Int(wav[4]) | Int(wav[5]) << 8 | Int(wav[6]) << 16 == wav.count - 8)
        #expect(Set(wav[44...]).count > 2, "a tone, not silence")
        let environment = EndSound.hook(players: EndSound.players).environment
        #expect(environment["TIMERDECK_SOUND_WAV"].flatMap { Data(base64Encoded: $0) }.map(Array.init) == wav)
    }

    @Test("The first player installed gets the beep on its standard input, and the status bar names it")
    @available(*, noasync)
    func firstInstalledPlayerPlays() throws {
        let scratch = try ScratchDirectory()
        let heard = scratch.path("heard.wav").path
        let arguments = scratch.path("arguments").path
        let player = try scratch.write(
            "#!/bin/sh\nprintf '%s|' \"$@\" > '\(arguments)'\ncat > '\(heard)'\n", to: "aplay")
        chmod(player, 0o755)
        let driver = try runTea(players: ["/nonexistent/pw-play", "/nonexistent/paplay", player])
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: heard))) == EndSound.wav)
        #expect(try String(contentsOfFile: arguments, encoding: .utf8) == "-q|")
        #expect(driver.state.hint == "sounds play through aplay")
    }

    @Test("With no player installed, the status bar says so in one line")
    @available(*, noasync)
    func missingPlayersAreSaid() throws {
        let driver = try runTea(players: ["/nonexistent/pw-play", "/nonexistent/paplay", "/nonexistent/aplay"])
        #expect(
            driver.state.hint
                == "no sound — none of pw-play, paplay or aplay is installed (Debian/Ubuntu: apt-get install "
                + "pipewire-bin, pulseaudio-utils or alsa-utils)")
    }

    @Test("A player that fails is named with the timer and its error")
    @available(*, noasync)
    func failingPlayerIsSaid() throws {
        let scratch = try ScratchDirectory()
        let player = try scratch.write("#!/bin/sh\ncat >/dev/null\necho 'cannot find card' >&2\nexit 1\n", to: "paplay")
        chmod(player, 0o755)
        let driver = try runTea(players: [player])
        #expect(driver.state.hint == "tea: the sound failed: exit 1: paplay")
    }
}
