import Glibc

/// The water-ripple animation of seed scene S3: concentric waves spreading from a few drops.
///
/// A pure function of the frame number, so a display link that skips frames shows the animation
/// jump ahead (D3) and the same frame always looks the same (headless snapshots).
enum Ripple {
    private static let shades: [Character] = Array(" .·:-=+*#%@")

    /// The picture for `frame` as `height` lines of `width` characters.
    static func render(frame: Int, width: Int, height: Int) -> [String] {
        guard width > 0, height > 0 else { return [] }
        let time = Double(frame) / 60
        let drops: [(x: Double, y: Double, phase: Double)] = [
            (Double(width) * 0.3, Double(height) * 0.5, 0),
            (Double(width) * 0.72, Double(height) * 0.35, 1.7),
        ]
        var lines: [String] = []
        lines.reserveCapacity(height)
        for row in 0..<height {
            var line = ""
            line.reserveCapacity(width)
            for column in 0..<width {
                var height = 0.0
                for drop in drops {
                    // Terminal cells are about twice as tall as wide.
                    let dx = Double(column) - drop.x
                    let dy = (Double(row) - drop.y) * 2
                    let distance = (dx * dx + dy * dy).squareRoot()
                    height += sin(distance * 0.7 - time * 6 + drop.phase) / (1 + distance * 0.08)
                }
                let level = (height + 2) / 4
                let index = min(max(Int(level * Double(shades.count)), 0), shades.count - 1)
                line.append(shades[index])
            }
            lines.append(line)
        }
        return lines
    }
}
