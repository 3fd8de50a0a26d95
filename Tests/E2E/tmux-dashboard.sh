#!/usr/bin/env bash
# End-to-end test of the timerdeck dashboard in a real terminal (tmux): starts the built binary at
# 80x24 and 120x40, presses keys, scrolls the fire log, reads the screen with capture-pane.
# Usage: tmux-dashboard.sh PATH/TO/timerdeck        Exit status 0 when every check passes.
set -u
binary=${1:?usage: tmux-dashboard.sh PATH/TO/timerdeck}
runs=0
socket="timerdeck-e2e-$$-0"
session=deck
failures=0
# The dashboard's outbox and uploads go to a scratch state directory, never the user's.
state=$(mktemp -d)
export XDG_STATE_HOME=$state
tmux_() { tmux -L "$socket" "$@"; }
# A server whose pane holds an interactive shell with a stopped job can outlive kill-server: the
# server's own pid is taken first and killed outright if it is still there.
cleanup() {
    local server
    server=$(tmux_ display-message -p '#{pid}' 2>/dev/null)
    tmux_ kill-server >/dev/null 2>&1
    if [ -n "$server" ]; then kill -KILL "$server" 2>/dev/null; fi
}
trap 'cleanup; rm -rf "$state"' EXIT

source "$(dirname "$0")/tmux-checks.sh"

# Each start gets its own tmux server, so a server still shutting down cannot hang up the new one.
start() {
    cleanup
    runs=$((runs + 1))
    socket="timerdeck-e2e-$$-$runs"
    tmux_ -f /dev/null new-session -d -s "$session" -x "$1" -y "$2" >/dev/null 2>&1 </dev/null \
        "env TERM=xterm-256color XDG_STATE_HOME=$state $binary; echo TIMERDECK-EXIT=\$?; sleep 60"
}

# --- 80x24: countdowns, tracking held with t, scrolling, quit ------------------------------------
start 80 24
check "80x24: dashboard opens" "SMS resend (S1)"
if screen | head -1 | grep -qF "mode: default  depth: 1"; then pass "the first frame shows the running loop's mode and depth"; else fail "the first frame shows the running loop's mode and depth"; fi
check "S2: the uploads panel names its sink" "Uploads (S2) → dir"
# The very first key is an arrow: it must arrive as one (keypad mode is on before the first read).
tmux_ send-keys -t "$session" Down
check "the first arrow key after launch selects the next row" "▶ [ Send        ] Timer in common"
tmux_ send-keys -t "$session" Up
check "the arrow back selects the first row" "▶ [ Send        ] Timer in default"
tmux_ send-keys -t "$session" Enter
check "S1: Send becomes Resend (60)/(59) at once" "[ Resend (5"
tmux_ send-keys -t "$session" Down Enter
check "S1: the common-mode row counts too" "Timer in common"
tmux_ send-keys -t "$session" t
check "t holds the run loop in the tracking mode" "mode: tracking  depth: 2"
check "M2: the default-mode row waits for its mode" "Timer in default waiting"
common_label() { screen | grep -o 'Resend ([0-9]*) \] Timer in common' | head -1; }
before=$(common_label)
check "M2: the common-mode row keeps counting while tracking" "sms-common  RunLoop Timer 1s common   running"
changed=0
deadline=$((SECONDS + 5))
while [ $SECONDS -lt $deadline ]; do
    [ "$(common_label)" != "$before" ] && { changed=1; break; }
    sleep 0.05
done
if [ $changed = 1 ]; then pass "M2: the common-mode label changed during tracking"; else fail "M2: the common-mode label changed during tracking"; fi
tmux_ send-keys -t "$session" t
check "t again returns to the default mode" "mode: default  depth: 1"
scrolled=0
for _ in $(seq 1 40); do
    tmux_ send-keys -t "$session" k
    if screen | grep -qF "⇅ scrolling"; then scrolled=1; break; fi
    sleep 0.05
done
if [ $scrolled = 1 ]; then pass "scrolling the log enters the tracking mode"; else fail "scrolling the log enters the tracking mode"; fi
check "the gesture ends after the quiet period" "mode: default  depth: 1"
tmux_ send-keys -t "$session" '?'
# Live, the uploads' directory does not fit the panel's title: the overlay gives it in full first.
check "? opens the help overlay" "Keys (↓ more, ? or Esc to close)"
check "the help overlay says where uploads go" "Uploads go to dir $state"
tmux_ send-keys -t "$session" PPage
tmux_ send-keys -t "$session" NPage
check "PgDn scrolls the help to its last keys" "q                 quit"
tmux_ send-keys -t "$session" x
check "keys do not act behind the help overlay" "the help is open: ? or Esc closes it"
tmux_ send-keys -t "$session" Escape
check "Esc closes the help" "sms-default RunLoop Timer 1s default"
if screen | grep -qF "sms-default RunLoop Timer 1s default  invalid"; then fail "x behind the help left the timer alone"; else pass "x behind the help left the timer alone"; fi
tmux_ send-keys -t "$session" y
check "an unknown key leaves a hint" "does nothing here"
# Escape sequences TERM=xterm-256color's terminfo does not list arrive as one key each: End as
# PuTTY, rxvt and screen send it does not open the timeline (4), Alt-q does not quit, and an
# unknown sequence is named once.
tmux_ send-keys -t "$session" -H 1b 5b 34 7e
check "ESC [4~ is End, one key" "key end does nothing here"
if screen | grep -qF "Timeline:"; then fail "ESC [4~ does not open the timeline"; else pass "ESC [4~ does not open the timeline"; fi
tmux_ send-keys -t "$session" -H 1b 5b 39 39 7e
check "an unknown sequence is one key, named once" " an unrecognised key (ESC [99~) does nothing here"
tmux_ send-keys -t "$session" M-q
check "Alt-q is one unknown key" "an unrecognised key (alt-q) does nothing here"
if screen | grep -qF "TIMERDECK-EXIT"; then fail "Alt-q does not quit"; else pass "Alt-q does not quit"; fi
# A message cut in the status bar says so and is whole in the help: m on the dispatch timer.
tmux_ send-keys -t "$session" Down m
check "a cut status message points at the help" "[? in full]"
tmux_ send-keys -t "$session" '?'
check "the help holds the cut message in full" "Messages (in full)"
check "the help holds the end of the cut message" "Status: sms-gcd: "
# Escape and the next key in one read would be Alt with that key: wait for the help to close.
tmux_ send-keys -t "$session" Escape
check "Esc closes the help over the message" "sms-default RunLoop Timer 1s default"
# The full title bar keeps the pause and the slow motion; the common modes give way.
tmux_ send-keys -t "$session" C t '<' Space
check "80x24: a full title bar keeps the pause and the rate" "⇅ held (t)  ⏸ paused ¼×"
tmux_ send-keys -t "$session" Space '>' t
check "the time controls undone" "mode: default  depth: 1  common: [default, tracking, modal]"
check "S2: samples are committed to the outbox while the dashboard runs" "· last #" 10
tmux_ send-keys -t "$session" q
check "q quits with status 0" "TIMERDECK-EXIT=0"
if screen | grep -qF "SMS resend"; then fail "the terminal is restored after quitting"; else pass "the terminal is restored after quitting"; fi
if ls "$state"/timerdeck/uploads/*.json >/dev/null 2>&1; then pass "S2: the final flush wrote the batch on quit"; else fail "S2: the final flush wrote the batch on quit"; fi

# --- 120x40: bigger layout, resize below the minimum and back, SIGTERM ----------------------------
start 120 40
check "120x40: dashboard opens" "Ripple (display link, S3)"
# L1: a strong-target screen opened and closed in the lifetime lab keeps firing until i frees it.
tmux_ send-keys -t "$session" 2 o c
check "L1: the lifetime lab opens" "L1  target-action, strong target"
lab_counts() { screen | grep -F "L1  target-action, strong target" | head -1 | sed 's/.*strong target//' | grep -o '[0-9]\+' | tr '\n' ' '; }
# lab_shows PATTERN: the strong-target line's counts match PATTERN.
lab_shows() { case "$(lab_counts)" in $1) return 0 ;; esac; return 1; }
if eventually 10 lab_shows "1 1 1 1 [2-9]*"; then pass "L1: the closed screen stays alive and its timer keeps firing"; else fail "L1: the closed screen stays alive and its timer keeps firing (counts: $(lab_counts))"; fi
tmux_ send-keys -t "$session" i
if eventually 5 lab_shows "1 1 0 0 *"; then pass "L1: i invalidates the leaked timer and the screen is freed"; else fail "L1: i invalidates the leaked timer and the screen is freed (counts: $(lab_counts))"; fi
tmux_ send-keys -t "$session" 1
check "1 returns to the dashboard" "SMS resend (S1)"
# C-M5: the custom mode run with M, made common with C for good, left with M.
tmux_ send-keys -t "$session" M
check "M runs the loop in the custom mode" "mode: modal  depth: 2  common: [default, tracking]"
tmux_ send-keys -t "$session" C
check "C-M5: C makes the custom mode common" "mode: modal  depth: 2  common: [default, tracking, modal]"
tmux_ send-keys -t "$session" M
check "M again returns to the default mode; modal stays common" "mode: default  depth: 1  common: [default, tracking, modal]"
# Time controls: space pauses every timer (a running countdown stands still), space resumes; < slows down.
tmux_ send-keys -t "$session" Enter
check "the default-mode countdown runs" "Resend (5"
tmux_ send-keys -t "$session" Space
check "space pauses the dashboard's clock" "⏸ paused"
default_label() { screen | grep -o 'Resend ([0-9]*) \] Timer in default' | head -1; }
label_moved() { [ "$(default_label)" != "$paused_label" ]; }
paused_label=$(default_label)
sleep 1.5
if label_moved; then fail "paused: the countdown stands still"; else pass "paused: the countdown stands still"; fi
tmux_ send-keys -t "$session" Space
if eventually 5 label_moved; then pass "space again: the countdown goes on"; else fail "space again: the countdown goes on"; fi
tmux_ send-keys -t "$session" '<'
check "< slows the clock to a quarter" "¼×"
tmux_ send-keys -t "$session" '>'
tmux_ resize-window -t "$session" -x 60 -y 20 2>/dev/null || tmux_ resize-pane -t "$session" -x 60 -y 20
check "too small: asks for 80x24" "enlarge the terminal to at least 80×24"
tmux_ resize-window -t "$session" -x 120 -y 40 2>/dev/null || tmux_ resize-pane -t "$session" -x 120 -y 40
check "resize back redraws the dashboard" "SMS resend (S1)"
pid=$(pgrep -n -f "^$binary\$" || true)
if [ -n "$pid" ]; then kill -TERM "$pid"; fi
check "SIGTERM exits cleanly" "TIMERDECK-EXIT=0"

# --- C-M12: the GCD row on the main queue, drained by the main run loop --------------------------
# The shipped config with the sms-gcd timer on the main queue.
sed 's/^mechanism = "dispatch"$/mechanism = "main-queue"/' "$(dirname "$0")/../../Resources/timerdeck.toml" \
    > "$state/main-queue.toml"
grep -q '^mechanism = "main-queue"$' "$state/main-queue.toml" || { echo "FAIL the shipped config has no dispatch sms-gcd"; exit 1; }
# With a task row in the default mode: an async task on the loop, sleeping 200 ms at a time.
printf '\n[[timers]]\nname = "nap"\nmechanism = "task"\ninterval = "200ms"\n' >> "$state/main-queue.toml"
cleanup
runs=$((runs + 1))
socket="timerdeck-e2e-$$-$runs"
tmux_ -f /dev/null new-session -d -s "$session" -x 120 -y 40 >/dev/null 2>&1 </dev/null \
    "env TERM=xterm-256color XDG_STATE_HOME=$state $binary --config $state/main-queue.toml; echo TIMERDECK-EXIT=\$?; sleep 60"
check "main queue: the GCD row names its queue" "GCD main in any mode"
tmux_ send-keys -t "$session" Down Down Enter
check "C-M12: the main-queue GCD row counts down on the main run loop" "Resend (58) ] GCD main"
# The task row waits while the log is scrolled (tracking), then goes on.
nap_is() { screen | grep -qE "^│ nap +Task sleep 200ms +default +$1"; }
log_fires() { screen | grep -o 'Fire log ([0-9]*' | grep -o '[0-9]*$'; }
waited=0
for _ in $(seq 1 40); do
    tmux_ send-keys -t "$session" k
    if nap_is "waiting for mode"; then waited=1; break; fi
    sleep 0.05
done
if [ $waited = 1 ]; then pass "task: the default-mode task row waits while the log scrolls"; else fail "task: the default-mode task row waits while the log scrolls"; fi
if eventually 5 nap_is running; then pass "task: it runs again after the gesture"; else fail "task: it runs again after the gesture"; fi
after_gesture=$(log_fires)
fires_grew() { [ "$(log_fires)" -gt "$after_gesture" ]; }
if eventually 5 fires_grew; then pass "task: its wake-ups go on"; else fail "task: its wake-ups go on"; fi
tmux_ send-keys -t "$session" q
check "main queue: q quits with status 0" "TIMERDECK-EXIT=0"

# --- Ctrl-Z, resize while stopped, fg: the new layout at once -------------------------------------
cleanup
runs=$((runs + 1))
socket="timerdeck-e2e-$$-$runs"
tmux_ -f /dev/null new-session -d -s "$session" -x 120 -y 40 "env PS1='$ ' bash --norc --noprofile -i" >/dev/null 2>&1 </dev/null
# --fresh: the countdowns the first session left running would come back otherwise.
tmux_ send-keys -t "$session" "env TERM=xterm-256color XDG_STATE_HOME=$state $binary --fresh" Enter
check "in a shell: the dashboard opens" "SMS resend (S1)"
# Ctrl-Z at the very first frame, while frames are still being written: ncurses, left to manage
# SIGTSTP, set it to SIG_IGN around every frame, which discarded a pending Ctrl-Z about one time
# in ten (CursesScreen keeps ncurses off SIGTSTP).
tmux_ send-keys -t "$session" C-z
check "Ctrl-Z gives the terminal back to the shell" "Stopped"
tmux_ resize-window -t "$session" -x 100 -y 30 2>/dev/null || tmux_ resize-pane -t "$session" -x 100 -y 30
tmux_ send-keys -t "$session" "fg" Enter
# The status bar, on row 30: its hints, or what --fresh says it set aside (the first session's file).
bottom_has_hints() { tmux_ capture-pane -t "$session" -p | sed -n 30p | grep -qE "⏎ press|--fresh: "; }
laid_out=0
deadline=$((SECONDS + 15))
while [ $SECONDS -lt $deadline ]; do
    if bottom_has_hints && screen | head -1 | grep -qF "mode: default"; then laid_out=1; break; fi
    sleep 0.05
done
if [ $laid_out = 1 ]; then pass "fg after a resize while stopped lays the dashboard out for 100x30 at once"; else fail "fg after a resize while stopped lays the dashboard out for 100x30 at once"; fi
tmux_ send-keys -t "$session" Down
check "the first arrow key after fg selects the next row" "▶ [ Send        ] Timer in common"
tmux_ send-keys -t "$session" q
# `fg` returns the job's exit status once it quits (and gives the terminal back: then type).
deadline=$((SECONDS + 15))
while [ $SECONDS -lt $deadline ] && screen | grep -qF "SMS resend"; do sleep 0.05; done
tmux_ send-keys -t "$session" 'echo TIMERDECK-EXIT=$?' Enter
check "in a shell: q quits with status 0" "TIMERDECK-EXIT=0"

# --- no terminal, unknown TERM --------------------------------------------------------------------
output=$("$binary" </dev/null 2>&1); status=$?
if [ $status = 2 ] && printf '%s' "$output" | grep -qF -- "--headless"; then pass "no terminal: exit 2 with a hint"; else fail "no terminal: exit 2 with a hint (got $status: $output)"; fi
cleanup
runs=$((runs + 1))
socket="timerdeck-e2e-$$-$runs"
tmux_ -f /dev/null new-session -d -s "$session" -x 80 -y 24 "env TERM=no-such-terminal $binary; echo TIMERDECK-EXIT=\$?; sleep 60" >/dev/null 2>&1 </dev/null
check "unknown TERM: clear message" "not known to terminfo"
check "unknown TERM: exit 2" "TIMERDECK-EXIT=2"
cleanup
runs=$((runs + 1))
socket="timerdeck-e2e-$$-$runs"
tmux_ -f /dev/null new-session -d -s "$session" -x 80 -y 24 "env TERM=dumb $binary; echo TIMERDECK-EXIT=\$?; sleep 60" >/dev/null 2>&1 </dev/null
check "TERM=dumb: refused with a clear message" "TERM=dumb cannot move the cursor"
check "TERM=dumb: exit 2" "TIMERDECK-EXIT=2"

# --- a corrupt outbox -----------------------------------------------------------------------------
printf 'not a database' > "$state/corrupt.sqlite"
printf 'wait 1s\n' > "$state/script.txt"
output=$("$binary" --headless --script "$state/script.txt" --outbox "$state/corrupt.sqlite" 2>&1); status=$?
if [ $status = 2 ] && printf '%s' "$output" | grep -qF -- "$state/corrupt.sqlite is not a usable SQLite database"; then
    pass "corrupt outbox: exit 2 naming the file"
else
    fail "corrupt outbox: exit 2 naming the file (got $status: $output)"
fi
if [ "$(cat "$state/corrupt.sqlite")" = "not a database" ]; then pass "corrupt outbox: left untouched"; else fail "corrupt outbox: left untouched"; fi

# --- --record: a live session replays headless to the same final screen ---------------------------
# A state directory of its own: an empty outbox, as the replay's. The shipped config without its
# 60 Hz display link: a busy machine makes a live display link skip frames, which a replay of the
# keys cannot reproduce.
mkdir -p "$state/record"
python3 - "$(dirname "$0")/../../Resources/timerdeck.toml" > "$state/record.toml" <<'PY'
import sys
tables = open(sys.argv[1]).read().split("[[timers]]")
print("[[timers]]".join(t for t in tables if 'drives = "ripple"' not in t), end="")
PY
grep -q 'drives = "countdown"' "$state/record.toml" || { echo "FAIL the shipped config has no countdowns"; exit 1; }
cleanup
runs=$((runs + 1))
socket="timerdeck-e2e-$$-$runs"
tmux_ -f /dev/null new-session -d -s "$session" -x 80 -y 24 >/dev/null 2>&1 </dev/null \
    "env TERM=xterm-256color XDG_STATE_HOME=$state/record $binary --config $state/record.toml --record $state/session.txt; echo TIMERDECK-EXIT=\$?; sleep 60"
check "record: the dashboard opens" "SMS resend (S1)"
tmux_ send-keys -t "$session" Enter
check "record: a countdown starts" "Resend (5"
tmux_ send-keys -t "$session" Down Enter
sleep 1.2
tmux_ send-keys -t "$session" m
sleep 1.1
# Paused, the screen stands still: what it shows is what the recording ends on.
tmux_ send-keys -t "$session" Space
check "record: the clock is paused" "⏸ paused"
live=$(screen | python3 "$(dirname "$0")/normalize-screen.py")
tmux_ send-keys -t "$session" q
check "record: q quits with status 0" "TIMERDECK-EXIT=0"
replayed=$("$binary" --headless --config "$state/record.toml" --script "$state/session.txt" 2>&1 \
    | awk '/^--- snapshot/ { screen = ""; next } { screen = screen $0 "\n" } END { printf "%s", screen }' \
    | python3 "$(dirname "$0")/normalize-screen.py")
if [ -n "$live" ] && [ "$live" = "$replayed" ]; then
    pass "record: the recording replays headless to the same final screen"
else
    fail "record: the recording replays headless to the same final screen"
    diff <(printf '%s\n' "$live") <(printf '%s\n' "$replayed") | sed 's/^/     | /'
    sed 's/^/     script | /' "$state/session.txt"
fi

[ $failures = 0 ]
