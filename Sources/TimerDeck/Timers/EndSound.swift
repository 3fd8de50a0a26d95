internal import FoundationEssentials

/// The sound of a timer with `sound = true`: a short beep made here, played by the first of
/// ``players`` found on `PATH` (PipeWire's `pw-play`, PulseAudio's `paplay`, ALSA's `aplay`), run
/// like a hook, off the loop's thread. The beep goes to the player's standard input, so no file is
/// written; the player's name is the hook's first line, so the status bar can say which one played.
///
/// ```swift
/// let (hook, environment) = EndSound.hook(players: EndSound.players)
/// ```
enum EndSound {
    /// The players tried, in order.
    static let players = ["pw-play", "paplay", "aplay"]
    /// The exit status of the hook when none of the players is installed.
    static let notFound: Int32 = 127
    /// What the status bar says when no player is installed.
    static let missingHint =
        "none of pw-play, paplay or aplay is installed (Debian/Ubuntu: apt-get install pipewire-bin, "
        + "pulseaudio-utils or alsa-utils)"
    /// How long a player may take.
    static let timeLimit: Duration = .seconds(5)

    /// The hook that plays the beep with the first of `players` present; each reads a WAV from its
    /// standard input (`pw-play -`, `paplay`, `aplay -q`).
    static func hook(players: [String]) -> (Hook, environment: [String: String]) {
        let command = """
            for player in $TIMERDECK_SOUND_PLAYERS; do
            command -v "$player" >/dev/null 2>&1 || continue
            printf '%s\\n' "${player##*/}"
            printf '%s' "$TIMERDECK_SOUND_WAV" | base64 -d | case "${player##*/}" in
            pw-play) "$player" - ;; aplay) "$player" -q ;; *) "$player" ;; esac
            exit $?
            done
            exit \(notFound)
            """
        return (
            Hook(command: command, timeLimit: timeLimit),
            ["TIMERDECK_SOUND_PLAYERS": players.joined(separator: " "), "TIMERDECK_SOUND_WAV": wavBase64]
        )
    }

    /// ``wav`` in base64, as the hook's environment carries it (`base64 -d` turns it back).
    static let wavBase64 = Data(wav).base64EncodedString()

    /// The beep: 0.3 s of 880 Hz in 8-bit mono PCM at 8 kHz, faded in and out, as a WAV file.
    static let wav: [UInt8] = {
        let rate = 8_000
        let count = rate * 3 / 10
        var samples = [UInt8](repeating: 128, count: count)
        let fade = rate / 100
        for index in 0..<count {
            // A square wave at 880 Hz (about 9 samples a period), its edges faded over 10 ms.
            let high = (index * 880 * 2 / rate) % 2 == 0
            let envelope = min(1.0, Double(min(index, count - 1 - index)) / Double(fade))
            samples[index] = UInt8(128 + Int((high ? 40.0 : -40.0) * envelope))
        }
        func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func long(_ value: Int) -> [UInt8] { word(value & 0xFFFF) + word(value >> 16) }
        let format = word(1) + word(1) + long(rate) + long(rate) + word(1) + word(8)
        return Array("RIFF".utf8) + long(36 + count) + Array("WAVEfmt ".utf8) + long(16) + format
            + Array("data".utf8) + long(count) + samples
    }()
}
