#!/usr/bin/env bash
# Everyday timers in a real terminal (tmux): an alarm at a clock time rings, and a stopwatch's laps
# are exported with E and with --laps.
# Usage: tmux-everyday.sh PATH/TO/timerdeck SCENARIO
# Scenarios: alarm, laps.
# Exit status 0 when every check of the scenario passes.
set -u
binary=${1:?usage: tmux-everyday.sh PATH/TO/timerdeck SCENARIO}
scenario=${2:?the scenario}
socket="timerdeck-everyday-$$"
session=deck
failures=0
# The dashboard's state goes to a scratch directory, never the user's.
state=$(mktemp -d)
tmux_() { tmux -L "$socket" "$@"; }
trap 'tmux_ kill-server >/dev/null 2>&1; rm -rf "$state"' EXIT

source "$(dirname "$0")/tmux-checks.sh"

# start COMMAND: the pane runs COMMAND at 100x30, then prints its exit status.
start() {
    tmux_ -f /dev/null new-session -d -s "$session" -x 100 -y 30 >/dev/null 2>&1 </dev/null \
        "export TERM=xterm-256color XDG_STATE_HOME=$state; $1; printf '\\r\\nTIMERDECK-EXIT=%s\\r\\n' \$?; sleep 60"
}

# type_text TEXT: each character a key, as a user types it.
type_text() { tmux_ send-keys -t "$session" -l "$1"; }

alarm() {
    # Four seconds from now on the local clock (TZ as the test's environment has it).
    local at
    at=$(date -d '+4 seconds' +%H:%M:%S)
    cat >"$state/alarm.toml" <<TOML
[[timers]]
name = "tea"
drives = "countdown"
countdown = 60
start = false

[[timers]]
name = "lunch"
mechanism = "alarm"
first_fire = "$at"
bell = true
hook = "echo rang > $state/rang; echo lunch rang"
TOML
    start "$binary --config $state/alarm.toml"
    check "the alarm is listed beside the countdown" "lunch · alarm on the wall clock"
    check "the countdown says its clock" "tea · Timer in default, uptime clock"
    check "the alarm rings: its hook ran" "hook exit 0: lunch rang" 20
    if [ -f "$state/rang" ]; then pass "the hook wrote its file"; else fail "the hook wrote its file"; fi
    tmux_ send-keys -t "$session" q
    check "quit" "TIMERDECK-EXIT=0"
}

laps() {
    cat >"$state/laps.toml" <<TOML
[[timers]]
name = "run"
drives = "stopwatch"
interval = "100ms"
TOML
    start "$binary --config $state/laps.toml --laps $state/at-exit.csv"
    check "the stopwatch runs" "run · stopwatch, 0 laps"
    tmux_ send-keys -t "$session" L
    check "a lap" "run: lap 1"
    sleep 0.3
    tmux_ send-keys -t "$session" L
    check "another lap" "run: lap 2"
    tmux_ send-keys -t "$session" v
    check "the laps are listed" "Laps of run (2; v or Esc to close)"
    # Escape alone: followed at once by a key, a terminal reads the pair as Alt and that key.
    tmux_ send-keys -t "$session" Escape
    check "the laps are hidden" "run · stopwatch, 2 laps"
    tmux_ send-keys -t "$session" E
    check "E asks for a file" "write the laps of run to"
    type_text "$state/laps.csv"
    tmux_ send-keys -t "$session" Enter
    check "E wrote the laps" "wrote the laps of run to"
    if [ "$(grep -c '^run,' "$state/laps.csv" 2>/dev/null)" = 2 ]; then pass "two laps in the CSV"; else fail "two laps in the CSV"; fi
    tmux_ send-keys -t "$session" E
    type_text "$state/laps.csv"
    tmux_ send-keys -t "$session" Enter
    check "an existing file is not overwritten unasked" "exists: Enter overwrites it, Esc keeps it"
    tmux_ send-keys -t "$session" Escape
    check "Esc keeps the file" "kept"
    tmux_ send-keys -t "$session" q
    check "quit" "TIMERDECK-EXIT=0"
    if [ "$(grep -c '^run,' "$state/at-exit.csv" 2>/dev/null)" = 2 ]; then pass "--laps wrote the laps at the exit"; else fail "--laps wrote the laps at the exit"; fi
}

case "$scenario" in
alarm) alarm ;;
laps) laps ;;
*) fail "unknown scenario $scenario" ;;
esac
exit $((failures > 0))
