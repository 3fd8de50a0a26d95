import TerminalUI

extension DashboardState {
    /// `W`: asks for the file to write the timers to (every row's definition).
    mutating func askForTimersFile() -> [Effect] {
        guard !rows.isEmpty else {
            hint = "no timers to write: add one with a, or define them with [[timers]] in the config"
            return [.render(.status)]
        }
        prompt = Prompt(purpose: .write(.timers))
        hint = prompt?.line
        return [.render(.status)]
    }

    /// The file `W` or `E` would write exists: asks in the status bar before overwriting it.
    mutating func askToOverwrite(_ export: Export, _ path: String, isRunningConfig: Bool) -> [Effect] {
        prompt = Prompt(purpose: .overwrite(export, path: path, isRunningConfig: isRunningConfig))
        hint = prompt?.line
        return [.render(.status)]
    }

    /// A key at the overwrite question: Enter writes, Esc keeps the file, `?` opens the help (which
    /// shows the question in full); other keys leave it open.
    private mutating func overwriteKey(_ key: Key, export: Export, path: String) -> [Effect] {
        switch key {
        case .character("?"):
            return perform(.toggleHelp)
        case .enter:
            prompt = nil
            hint = nil
            return [.render(.status), .write(export, path: path, text: text(of: export), overwrite: true)]
        case .escape:
            prompt = nil
            hint = "kept \(UserText.quote(path)); \(export.key) writes \(export.what) to another file"
            return [.render(.status)]
        default:
            return []
        }
    }

    /// A key while a prompt is open: editing, Enter to act, Esc to cancel; at the add-timer prompt
    /// `?` (never part of a timer's line) opens the help, which shows the prompt's message in full.
    mutating func promptKey(_ key: Key) -> [Effect] {
        guard var current = prompt else { return [] }
        if case .overwrite(let export, let path, _) = current.purpose {
            return overwriteKey(key, export: export, path: path)
        }
        var effects: [Effect] = [.render(.status)]
        switch key {
        case .escape:
            prompt = nil
            hint = "cancelled"
            return effects
        case .character("?") where current.purpose == .addTimer:
            return perform(.toggleHelp)
        case .enter where current.purpose == .addTimer:
            return effects + addTimer(from: current)
        case .enter:
            prompt = nil
            guard case .write(let export) = current.purpose else { return effects }
            guard !current.text.isEmpty else {
                hint = "no file named: \(export.key) again to write \(export.what)"
                return effects
            }
            hint = nil
            effects.append(.write(export, path: current.text, text: text(of: export), overwrite: false))
            return effects
        case .backspace:
            if !current.text.isEmpty { current.text.removeLast() }
        case .character(let character) where current.text.count < Prompt.maxLength && !character.isNewline:
            current.text.append(character)
        default:
            break
        }
        prompt = current
        hint = promptLine
        return effects
    }

    /// The open prompt's status line: its question and text, and at the add-timer prompt the
    /// problem with the text so far, checked as it is typed.
    var promptLine: String? {
        guard let prompt else { return nil }
        return prompt.line + (promptProblem.map { "  — " + $0 } ?? "")
    }

    /// What is wrong with the add-timer prompt's text so far; `nil` when it defines a timer, or no
    /// add-timer prompt is open or nothing is typed yet.
    var promptProblem: String? {
        guard let prompt, prompt.purpose == .addTimer, !prompt.text.isEmpty else { return nil }
        do throws(ConfigError) {
            _ = try TimerDefinition.parse(line: prompt.text, taken: rows.map(\.name))
            return nil
        } catch {
            return error.message
        }
    }

    /// The status bar's message: the open prompt's line, which stays in view while the prompt is
    /// open, then an alarm's or a countdown's alert until a key, then any other message.
    var statusLine: String? {
        let line = promptLine
        let messages = [line, alert, hint == line ? nil : hint].compactMap { $0 }
        return messages.isEmpty ? nil : messages.joined(separator: "  · ")
    }

    /// `a`: asks for a new timer's definition.
    mutating func askForTimer() -> [Effect] {
        prompt = Prompt(purpose: .addTimer)
        hint = prompt?.line
        return [.render(.status)]
    }

    /// Enter at the add-timer prompt: a valid definition becomes a running row; otherwise the prompt
    /// stays open with what is wrong.
    private mutating func addTimer(from current: Prompt) -> [Effect] {
        let timer: TimerDefinition
        do throws(ConfigError) {
            timer = try TimerDefinition.parse(line: current.text, taken: rows.map(\.name))
        } catch {
            hint = promptLine
            return []
        }
        prompt = nil
        let id = RowID(number: rowsMade)
        rowsMade += 1
        var row = RowState(timer, id: id)
        row.run = .running
        row.button?.press()
        append(row)
        hint = "added \(timer.name): s starts or stops it, W writes the timers to a file"
        return [.addTimer(id), .start(id)] + stopwatchEffects(row, .start) + [.render(.all)]
    }
}
