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
cleanup() { tmux_ kill-server >/dev/null 2>&1; }
trap 'cleanup; rm -rf "$state"' EXIT

pass() { printf 'ok   %s [%ss]\n' "$1" "$SECONDS"; }
fail() { printf 'FAIL %s\n' "$1"; tmux_ capture-pane -t "$session" -p 2>/dev/null | sed 's/^/     | /'; failures=$((failures + 1)); }

# wait_for TEXT [SECONDS]: a bounded wait until the pane shows TEXT.
wait_for() {
    local deadline=$((SECONDS + ${2:-15}))
    while [ $SECONDS -lt $deadline ]; do
        tmux_ capture-pane -t "$session" -p 2>/dev/null | grep -qF -- "$1" && return 0
        sleep 0.05
    done
    return 1
}
screen() { tmux_ capture-pane -t "$session" -p; }
check() { if wait_for "$2" "${3:-15}"; then pass "$1"; else fail "$1 (expected: $2)"; fi; }

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
check "S2: the uploads panel names its sink" "Uploads (S2) → dir"
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
check "? opens the help overlay" "Keys (? or Esc to close)"
tmux_ send-keys -t "$session" Escape
tmux_ send-keys -t "$session" z
check "an unknown key leaves a hint" "does nothing here"
check "S2: samples are committed to the outbox while the dashboard runs" "· last #" 10
tmux_ send-keys -t "$session" q
check "q quits with status 0" "TIMERDECK-EXIT=0"
if screen | grep -qF "SMS resend"; then fail "the terminal is restored after quitting"; else pass "the terminal is restored after quitting"; fi
if ls "$state"/timerdeck/uploads/*.json >/dev/null 2>&1; then pass "S2: the final flush wrote the batch on quit"; else fail "S2: the final flush wrote the batch on quit"; fi

# --- 120x40: bigger layout, resize below the minimum and back, SIGTERM ----------------------------
start 120 40
check "120x40: dashboard opens" "Ripple (display link, S3)"
tmux_ resize-window -t "$session" -x 60 -y 20 2>/dev/null || tmux_ resize-pane -t "$session" -x 60 -y 20
check "too small: asks for 80x24" "enlarge the terminal to at least 80×24"
tmux_ resize-window -t "$session" -x 120 -y 40 2>/dev/null || tmux_ resize-pane -t "$session" -x 120 -y 40
check "resize back redraws the dashboard" "SMS resend (S1)"
pid=$(pgrep -n -f "^$binary\$" || true)
if [ -n "$pid" ]; then kill -TERM "$pid"; fi
check "SIGTERM exits cleanly" "TIMERDECK-EXIT=0"

# --- no terminal, unknown TERM --------------------------------------------------------------------
output=$("$binary" </dev/null 2>&1); status=$?
if [ $status = 2 ] && printf '%s' "$output" | grep -qF -- "--headless"; then pass "no terminal: exit 2 with a hint"; else fail "no terminal: exit 2 with a hint (got $status: $output)"; fi
cleanup
runs=$((runs + 1))
socket="timerdeck-e2e-$$-$runs"
tmux_ -f /dev/null new-session -d -s "$session" -x 80 -y 24 "env TERM=no-such-terminal $binary; echo TIMERDECK-EXIT=\$?; sleep 60" >/dev/null 2>&1 </dev/null
check "unknown TERM: clear message" "not known to terminfo"
check "unknown TERM: exit 2" "TIMERDECK-EXIT=2"

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

[ $failures = 0 ]
