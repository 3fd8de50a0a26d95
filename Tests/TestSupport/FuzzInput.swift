import Glibc

/// Seeded generator of hostile input for parser fuzz tests: grammar-shaped text with mutations,
/// huge and boundary numbers, empty input and raw bytes (NUL, CR, invalid UTF-8).
///
/// The seed comes from `TIMERDECK_FUZZ_SEED` when set (`random` draws a new one), otherwise it is
/// fixed per test name, so `swift test` feeds the same inputs every run and CI cannot fail by chance.
/// Either way ``init(_:)`` prints it: a failing run is repeated with `TIMERDECK_FUZZ_SEED=<seed> swift test`,
/// and `TIMERDECK_FUZZ_SEED=random swift test --filter Fuzz` explores new inputs.
public struct FuzzInput {
    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    /// A generator for the fuzz test `name`, seeded as described above.
    public init(_ name: String) {
        let requested = getenv("TIMERDECK_FUZZ_SEED").map { String(cString: $0) }
        if let requested, let given = UInt64(requested) {
            seed = given
        } else if requested == "random" {
            seed = UInt64.random(in: 0...UInt64.max)
        } else {
            // FNV-1a of the name: a fixed seed per test.
            seed = name.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0100_0000_01B3 }
        }
        state = seed
        print("fuzz \(name): seed \(seed) (repeat with TIMERDECK_FUZZ_SEED=\(seed))")
    }

    /// The next 64 random bits (SplitMix64).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// One of `choices`.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// A number as text: small, boundary, huge (beyond 64 bits), negative, or with junk around it.
    public mutating func number() -> String {
        switch below(8) {
        case 0: return String(below(1_000))
        case 1: return String(Int64(bitPattern: next()))
        case 2:
            return pick([
                "0", "-0", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                "18446744073709551616", "1e309", "0x7fffffffffffffff", "00000000000000000000001",
            ])
        case 3: return String(repeating: "9", count: 1 + below(60))
        case 4: return "-" + String(below(100_000))
        case 5: return String(below(100)) + "." + String(below(100))
        case 6: return String(next())
        default: return String(repeating: "1", count: 1 + below(400))
        }
    }

    /// Raw bytes decoded as UTF-8 (invalid sequences become U+FFFD), with NUL, CR and LF likely.
    public mutating func bytes(maxCount: Int = 64) -> String {
        var bytes: [UInt8] = []
        for _ in 0..<below(maxCount + 1) {
            bytes.append(
                below(4) == 0
                    ? pick([0, 10, 13, 0x22, 0x3D, 0x5B, 0x5D, 0x23, 0xFF]) : UInt8(truncatingIfNeeded: next()))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` changed a little: a character dropped, repeated, or replaced by a random byte or a number.
    public mutating func mutate(_ text: String) -> String {
        var characters = Array(text)
        for _ in 0..<(1 + below(3)) {
            guard !characters.isEmpty else { break }
            let index = below(characters.count)
            switch below(4) {
            case 0: characters.remove(at: index)
            case 1: characters.insert(characters[index], at: index)
            case 2: characters[index] = Character(Unicode.Scalar(UInt8(truncatingIfNeeded: next())))
            default: characters.insert(contentsOf: number(), at: index)
            }
        }
        return String(characters)
    }
}
