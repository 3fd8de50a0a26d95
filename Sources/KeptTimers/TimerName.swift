/// What a timer's name may be: the config, the `a` form, the timers file and the history all
/// check it here.
///
/// ```swift
/// TimerName.isValid("tea-2")   // true
/// TimerName.isValid("t ea")    // false
/// ```
package enum TimerName {
    /// The longest name.
    package static let maxLength = 24
    /// What a name must be, as the error messages say it.
    package static let rule = "1…\(maxLength) letters, digits, - or _"

    /// Whether `text` is an acceptable timer name.
    package static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text.count <= maxLength
            && text.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
                default: false
                }
            }
    }
}
