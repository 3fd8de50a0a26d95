import Glibc

/// Reads small text files (config, scripts) without Foundation.
enum TextFile {
    /// The UTF-8 contents of `path`, or `nil` if it cannot be opened.
    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A headless script file that cannot be read.
package struct ScriptFileError: Error, CustomStringConvertible {
    package let path: String
    package var description: String { "cannot read script file \(path): no such readable file" }
}

/// Reads headless script files.
package enum ScriptFile {
    /// The text of the script at `path`.
    package static func read(_ path: String) throws(ScriptFileError) -> String {
        guard let text = TextFile.read(path) else { throw ScriptFileError(path: path) }
        return text
    }
}
