#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
// The wide-character API, which ncursesw.pc asks for with -D flags that SwiftPM refuses.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <signal.h>
#include <string.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Swift 6 rejects C globals as shared mutable state and cannot see function-like macros:
// each one the terminal layer needs gets a prefixed static inline shim.
static inline WINDOW *cn_stdscr(void) { return stdscr; }

// ncurses (6.4) takes SIGTSTP over while its disposition is the default: it installs a handler of
// its own and sets SIG_IGN around every doupdate, and setting SIG_IGN discards a pending SIGTSTP
// even while it is blocked, so a Ctrl-Z that came during a frame was lost. With a handler already
// there ncurses leaves SIGTSTP alone for good. The placeholder never runs while the program keeps
// SIGTSTP blocked and reads it (from a signalfd); it only keeps the disposition off the default.
static inline void cn_tstp_placeholder(int signal) { (void)signal; }
static inline void cn_keep_tstp_from_curses(void) {
    struct sigaction current;
    if (sigaction(SIGTSTP, NULL, &current) != 0 || current.sa_handler != SIG_DFL) return;
    struct sigaction placeholder;
    memset(&placeholder, 0, sizeof placeholder);
    placeholder.sa_handler = cn_tstp_placeholder;
    sigemptyset(&placeholder.sa_mask);
    sigaction(SIGTSTP, &placeholder, NULL);
}
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t cn_color_pair(int n) { return COLOR_PAIR(n); }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
// A colour pair by int, so a direct colour's value (0xRRGGBB) fits.
static inline int cn_init_pair(int pair, int fg, int bg) { return init_extended_pair(pair, fg, bg); }
static inline void cn_getmaxyx(WINDOW *w, int *y, int *x) { getmaxyx(w, *y, *x); }
static inline mmask_t cn_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cn_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t cn_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cn_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline mmask_t cn_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline int cn_key_f0(void) { return KEY_F0; }
#endif
