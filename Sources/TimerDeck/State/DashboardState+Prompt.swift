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
        guard prompt.purpose == .addTimer, !prompt.text.isEmpty else { return prompt.line }
        do throws(ConfigError) {
            _ = try TimerDefinition.parse(line: prompt.text, taken: rows.map(\.name))
            return prompt.line
        } catch {
            return prompt.line + "  — " + error.message
        }
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
        let sameKind = timer.drives == .countdown ? buttonRows : timer.drives == .stopwatch ? stopwatchRows : []
        if sameKind.count >= DashboardLayout.countdownRows {
            hint =
                "the SMS panel has room for \(DashboardLayout.countdownRows) \(timer.drives.rawValue)s: delete one (d) "
                + "first"
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

    /// `d`: deletes the selected timer, which `u` puts back; an upload job stays (the pipeline needs
    /// both: remove its `[[timers]]` table from the config instead). Its row number is not reused,
    /// so nothing that still names it reaches another row.
    mutating func deleteSelectedTimer() -> [Effect] {
        guard let row = selectedRow else {
            hint = "select one of your timers to delete (Tab to the timers panel)"
            return []
        }
        guard row.uploadJob == nil else {
            hint = "\(row.name) drives the uploads: to go without them, remove its [[timers]] table from the config"
            return []
        }
        lastDeleted = (row, rows.firstIndex { $0.id == row.id } ?? rows.count)
        remove(row.id)
        hint = "deleted \(row.name): \(KeyAction.name(of: keys.key(of: .undo))) puts it back"
        return [.deleteTimer(row.id), .render(.all)]
    }

    /// `u`: puts back the timer the last `d` deleted, where it was, from its definition, as a new
    /// row; it runs again if it ran (an SMS button is back at Send).
    mutating func undoDelete() -> [Effect] {
        guard let (deleted, position) = lastDeleted else {
            hint = "nothing to put back: \(KeyAction.name(of: keys.key(of: .delete))) deletes the selected timer"
            return []
        }
        guard !rows.contains(where: { $0.name == deleted.name }) else {
            hint = "a timer named \(deleted.name) was added since: delete it to put the old one back"
            return []
        }
        lastDeleted = nil
        let id = RowID(number: rowsMade)
        rowsMade += 1
        var row = RowState(deleted.definition, id: id)
        let runs = deleted.run.isScheduled && deleted.button == nil
        if runs { row.run = .running }
        insert(row, at: position)
        hint = "put back \(row.name)" + (runs ? ", running" : "")
        return [.addTimer(id)] + (runs ? [.start(id)] : []) + [.render(.all)]
    }
}
