import TerminalUI

extension DashboardState {
    /// `W`: asks for the file to write the timers to (every row's definition).
    mutating func askForTimersFile() -> [Effect] {
        guard !rows.isEmpty else {
            hint = "no timers to write: add one with a, or define them with [[timers]] in the config"
            return [.render(.status)]
        }
        prompt = Prompt(purpose: .writeTimers)
        hint = prompt?.line
        return [.render(.status)]
    }

    /// A key while a prompt is open: editing, Enter to act, Esc to cancel.
    mutating func promptKey(_ key: Key) -> [Effect] {
        guard var current = prompt else { return [] }
        var effects: [Effect] = [.render(.status)]
        switch key {
        case .escape:
            prompt = nil
            hint = "cancelled"
            return effects
        case .enter where current.purpose == .addTimer:
            return effects + addTimer(from: current)
        case .enter:
            prompt = nil
            guard !current.text.isEmpty else {
                hint = "no file named: W again to write the timers"
                return effects
            }
            hint = nil
            effects.append(.writeTimers(path: current.text, text: TimerDefinition.configText(rows.map(\.definition))))
            return effects
        case .backspace:
            if !current.text.isEmpty { current.text.removeLast() }
        case .character(let character) where current.text.count < Prompt.maxLength && !character.isNewline:
            current.text.append(character)
        default:
            break
        }
        prompt = current
        hint = current.line
        if current.purpose == .addTimer, !current.text.isEmpty {
            // Checked as it is typed: the problem with the text so far, if any.
            do throws(ConfigError) {
                _ = try TimerDefinition.parse(line: current.text, taken: rows.map(\.name))
            } catch {
                hint = current.line + "  — " + error.message
            }
        }
        return effects
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
            hint = current.line + "  — " + error.message
            return []
        }
        prompt = nil
        let id = RowID(number: rowsMade)
        rowsMade += 1
        var row = RowState(timer, id: id)
        row.run = .running
        append(row)
        hint = "added \(timer.name): s starts or stops it, W writes the timers to a file"
        return [.addTimer(id), .start(id), .render(.all)]
    }

    /// `d`: deletes the selected timer; an upload job stays (the pipeline needs both: remove its
    /// `[[timers]]` table from the config instead). Its row number is not reused, so nothing that
    /// still names it reaches another row.
    mutating func deleteSelectedTimer() -> [Effect] {
        guard let row = selectedRow else {
            hint = "select one of your timers to delete (Tab to the timers panel)"
            return []
        }
        guard row.uploadJob == nil else {
            hint = "\(row.name) drives the uploads: to go without them, remove its [[timers]] table from the config"
            return []
        }
        remove(row.id)
        hint = "deleted \(row.name)"
        return [.deleteTimer(row.id), .render(.all)]
    }
}
