internal import CNcurses
import Glibc

/// The real terminal, through ncursesw: wide characters, a theme's colours with direct/256/16/8/mono fallbacks
/// (`NO_COLOR` honoured), keys and mouse, and one `doupdate` per flush — none when nothing changed,
/// so ncurses sends only the cells that differ.
///
/// ```swift
/// let screen = try CursesScreen.start(mouse: true)
/// defer { screen.stop() }
/// screen.canvas.put("TimerDeck", row: 0, column: 0, style: Style(.title))
/// screen.flush()
/// let keys = screen.readKeys()   // when `inputDescriptor` is readable
/// ```
public final class CursesScreen: Screen {
    private let grid: CellGrid
    private var terminal: OpaquePointer?
    private var isActive = false
    /// The theme and the colour support in use.
    public let palette: Palette
    public private(set) var updateCount = 0

    /// The descriptor to watch for input (standard input).
    public let inputDescriptor: Int32 = STDIN_FILENO

    private init(terminal: OpaquePointer, palette: Palette, size: Size) {
        self.terminal = terminal
        self.palette = palette
        grid = CellGrid(size: size)
        isActive = true
    }

    /// Checks, without writing to the terminal or changing its modes, that ``start(mouse:)`` can
    /// take it over here, so a program can refuse before it opens or creates anything.
    ///
    /// - Throws: ``TerminalError/notATerminal`` when stdin or stdout is not a terminal,
    ///   ``TerminalError/unknownTerminal(_:)`` when `TERM` is not in terminfo,
    ///   ``TerminalError/unsupportedTerminal(_:lacking:)`` when it cannot show the screen.
    public static func check() throws(TerminalError) {
        let term = try terminalType()
        // The probe's output goes nowhere and its input is a copy of the terminal's: terminfo is
        // read, nothing is written to the terminal, and closing the copy leaves stdin open.
        guard let output = fopen("/dev/null", "w") else {
            throw .cannotStart("cannot open /dev/null: \(String(cString: strerror(errno)))")
        }
        defer { fclose(output) }
        let copy = dup(STDIN_FILENO)
        guard copy >= 0, let input = fdopen(copy, "r") else {
            if copy >= 0 { close(copy) }
            throw .cannotStart("cannot open the terminal's input: \(String(cString: strerror(errno)))")
        }
        defer { fclose(input) }
        let probe = try takeOver(term, output: output, input: input)
        endwin()
        delscreen(probe)
    }

    /// Takes over the terminal: cbreak, no echo, keypad, non-blocking input, hidden cursor; the
    /// roles get `theme`'s colours, the nearest the terminal has, unless `color` or `NO_COLOR` says
    /// no colour (``ColorSupport/detect(colors:hasColors:noColor:choice:)``).
    ///
    /// Ctrl-Z is the caller's: block `SIGTSTP` before calling this and handle it (``suspend()``,
    /// stop, ``resume()``). ncurses is kept from taking `SIGTSTP` over, since it would discard a
    /// Ctrl-Z that comes while a frame is written; an unblocked `SIGTSTP` now does nothing.
    ///
    /// - Throws: ``TerminalError/notATerminal`` when stdin or stdout is not a terminal,
    ///   ``TerminalError/unknownTerminal(_:)`` when `TERM` is not in terminfo,
    ///   ``TerminalError/unsupportedTerminal(_:lacking:)`` when it cannot show the screen.
    public static func start(mouse: Bool, theme: Theme = .dark, color: ColorChoice = .auto) throws(TerminalError)
        -> CursesScreen
    {
        let term = try terminalType()
        guard let output = fdopen(STDOUT_FILENO, "w"), let input = fdopen(STDIN_FILENO, "r") else {
            throw .cannotStart("cannot open the terminal's standard streams")
        }
        let terminal = try takeOver(term, output: output, input: input)
        cbreak()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        nodelay(cn_stdscr(), true)
        curs_set(0)
        set_escdelay(25)
        let noColor = getenv("NO_COLOR").map { String(cString: $0) }
        // COLORS and COLOR_PAIRS are known once colour is started.
        if has_colors() {
            start_color()
            use_default_colors()
        }
        var support = ColorSupport.detect(
            colors: Int(cn_colors()), hasColors: has_colors(), noColor: noColor, choice: color)
        if cn_color_pairs() <= ColorRole.allCases.count { support = .monochrome }
        let palette = Palette(theme: theme, support: support)
        for role in ColorRole.allCases {
            if let foreground = palette.foreground(for: role) {
                cn_init_pair(Int32(role.rawValue + 1), Int32(foreground), -1)
            }
        }
        if mouse {
            mousemask(cn_all_mouse_events(), nil)
            mouseinterval(0)
        }
        // ncurses (6.4) writes its output after every cursor movement until the screen has once
        // been left and resumed (`_nc_mvcur` flushes while `_endwin == ewInitial`, a state meant for
        // low-level terminfo programs): a frame of scattered changes went out as one write(2) per
        // move. Leaving and resuming visual mode once, before the first frame, makes every flush a
        // single write.
        endwin()
        doupdate()
        enterKeypadMode()
        var rows: Int32 = 0
        var columns: Int32 = 0
        cn_getmaxyx(cn_stdscr(), &rows, &columns)
        return CursesScreen(
            terminal: terminal, palette: palette,
            size: Size(width: Int(columns), height: Int(rows)))
    }

    /// The terminal's type from `TERM`, once stdin and stdout are checked to be a terminal.
    private static func terminalType() throws(TerminalError) -> String {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        setlocale(LC_ALL, "")
        let term = getenv("TERM").map { String(cString: $0) }
        guard let term, !term.isEmpty else { throw .unknownTerminal(term) }
        return term
    }

    /// A new ncurses screen for `term` writing to `output` and reading `input`, made current;
    /// refused, and undone, when terminfo does not know `term` or it lacks what the screen needs.
    private static func takeOver(
        _ term: String, output: UnsafeMutablePointer<FILE>, input: UnsafeMutablePointer<FILE>
    ) throws(TerminalError) -> OpaquePointer {
        // Before ncurses looks at SIGTSTP: the caller handles Ctrl-Z (see ``start(mouse:theme:color:)``).
        cn_keep_tstp_from_curses()
        // Unlike initscr, newterm returns NULL for a type terminfo does not know instead of exiting.
        guard let terminal = newterm(term, output, input) else { throw .unknownTerminal(term) }
        set_term(terminal)
        // A terminal that cannot move the cursor (TERM=dumb) would get the frames as one
        // unreadable stream, one without reverse video (TERM=vt52) could not show the selected
        // row and the bars: refuse them as unknown ones.
        if let lacking = missingCapability() {
            endwin()
            delscreen(terminal)
            throw .unsupportedTerminal(term, lacking: lacking)
        }
        return terminal
    }

    /// What the current terminal's terminfo entry lacks that the screen needs, as the error says
    /// it: moving the cursor (`cup`), reverse video (`rev` or `smso`); `nil` when it has both.
    private static func missingCapability() -> String? {
        if !has("cup") { return "move the cursor" }
        if !has("rev") && !has("smso") { return "show reverse video" }
        return nil
    }

    /// Whether the current terminal's terminfo entry has the string capability `name`.
    private static func has(_ name: String) -> Bool {
        guard let capability = tigetstr(name) else { return false }
        // terminfo answers (char *)-1 for a name that is not a string capability.
        return Int(bitPattern: capability) != -1
    }

    /// Sends the terminal's keypad-transmit sequence now. ncurses sends it at the first read only,
    /// so an arrow key typed before that arrives in the cursor-key form terminfo does not list and
    /// is lost. A read in no-delay mode sends it; a key it happens to read is pushed back.
    private static func enterKeypadMode() {
        var value: wint_t = 0
        let result = wget_wch(cn_stdscr(), &value)
        if result == KEY_CODE_YES {
            ungetch(Int32(value))
        } else if result != ERR {
            unget_wch(wchar_t(bitPattern: value))
        }
    }

    deinit {
        stop()
    }

    public var size: Size { grid.size }

    public var canvas: Canvas { Canvas(grid: grid, bounds: Rect(grid.size)) }

    public func flush() {
        guard isActive, grid.hasChanges else { return }
        let window = cn_stdscr()
        for change in grid.takeChanges() {
            // A span that starts on the right half of a wide character starts at its left half.
            var start = change.columns.lowerBound
            while start > 0, grid[change.row, start].isContinuation { start -= 1 }
            for column in start..<change.columns.upperBound {
                let cell = grid[change.row, column]
                guard !cell.isContinuation else { continue }
                draw(cell, window: window, row: Int32(change.row), column: Int32(column))
            }
        }
        wnoutrefresh(window)
        doupdate()
        updateCount += 1
    }

    /// Rings the terminal's bell (ncurses falls back to a visible flash where there is none).
    public func ring() {
        _ = beep()
    }

    public func emit(_ sequence: String) {
        guard isActive else { return }
        // After ncurses' own output, which doupdate has written: the sequence moves no cursor.
        let bytes = Array(sequence.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Glibc.write(STDOUT_FILENO, buffer.baseAddress! + written, buffer.count - written)
            }
            if result > 0 {
                written += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// Reads every key available without blocking, an escape sequence terminfo does not list as one
    /// key (``KeyDecoder/joiningSequences(_:)``); a resize also resizes the screen.
    public func readKeys() -> [Key] {
        guard isActive else { return [] }
        var keys: [Key] = []
        var value: wint_t = 0
        while true {
            let result = wget_wch(cn_stdscr(), &value)
            if result == ERR { break }
            if result == KEY_CODE_YES && Int32(value) == KEY_MOUSE {
                var event = MEVENT()
                if getmouse(&event) == OK {
                    keys.append(
                        .mouse(
                            MouseEvent(
                                kind: KeyDecoder.mouseKind(UInt(event.bstate)),
                                row: Int(event.y), column: Int(event.x))))
                }
                continue
            }
            let key = KeyDecoder.decode(UInt32(value), isKeyCode: result == KEY_CODE_YES)
            if key == .resize { adoptTerminalSize() }
            keys.append(key)
        }
        return KeyDecoder.joiningSequences(keys)
    }

    /// Asks the kernel for the window size (after SIGWINCH) and resizes ncurses and the screen.
    /// - Returns: whether the size changed.
    @discardableResult
    public func handleResize() -> Bool {
        guard isActive else { return false }
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0 else { return false }
        let size = Size(width: Int(window.ws_col), height: Int(window.ws_row))
        guard size != grid.size else { return false }
        resizeterm(Int32(size.height), Int32(size.width))
        adoptTerminalSize()
        return true
    }

    /// Gives the terminal back before the process stops (Ctrl-Z).
    public func suspend() {
        guard isActive else { return }
        endwin()
    }

    /// Takes the terminal again after `fg` and repaints everything, at the size the terminal has
    /// now: a resize while stopped went to the shell that had the terminal, not to this process.
    public func resume() {
        guard isActive else { return }
        handleResize()
        clearok(cn_stdscr(), true)
        grid.markAllChanged()
        flush()
        // endwin left keypad mode; the first arrow key after `fg` must not be lost either.
        Self.enterKeypadMode()
    }

    /// Restores the terminal; idempotent.
    public func stop() {
        guard isActive else { return }
        isActive = false
        endwin()
        if let terminal {
            delscreen(terminal)
            self.terminal = nil
        }
    }

    private func adoptTerminalSize() {
        var rows: Int32 = 0
        var columns: Int32 = 0
        cn_getmaxyx(cn_stdscr(), &rows, &columns)
        grid.resize(to: Size(width: Int(columns), height: Int(rows)))
        clearok(cn_stdscr(), true)
    }

    private func draw(_ cell: Cell, window: UnsafeMutablePointer<WINDOW>?, row: Int32, column: Int32) {
        let appearance = palette.appearance(of: cell.style)
        var attributes = cn_a_normal()
        if appearance.bold { attributes |= cn_a_bold() }
        if appearance.dim { attributes |= cn_a_dim() }
        if appearance.reverse { attributes |= cn_a_reverse() }
        if appearance.underline { attributes |= cn_a_underline() }
        let pair: Int16 = appearance.foreground == nil ? 0 : Int16(cell.style.role.rawValue + 1)
        // Up to 4 scalars (a base and combining marks) and the terminating 0, without allocating.
        var characters: (wchar_t, wchar_t, wchar_t, wchar_t, wchar_t) = (0, 0, 0, 0, 0)
        var complex = cchar_t()
        withUnsafeMutableBytes(of: &characters) { bytes in
            let wide = bytes.bindMemory(to: wchar_t.self)
            for (index, scalar) in cell.character.unicodeScalars.prefix(4).enumerated() {
                wide[index] = wchar_t(bitPattern: scalar.value)
            }
            setcchar(&complex, wide.baseAddress, attributes, pair, nil)
        }
        mvwadd_wch(window, row, column, &complex)
    }
}
