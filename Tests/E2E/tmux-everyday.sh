#!/usr/bin/env bash
# Everyday timers in a real terminal (tmux): an alarm at a clock time rings, and a stopwatch's laps
# are exported with E and with --laps, a restart (after q, and after kill -9) keeps every timer, and a
# second dashboard on the same timers file is refused, naming the first, and a countdown's end is
# heard and shown through the terminal's own notification sequence, byte for byte, per terminal, and
# as kitty's answer to its capability query says.
# Usage: tmux-everyday.sh PATH/TO/timerdeck SCENARIO
# Scenarios: alarm, laps, restart, two, notify, answer.
# Exit status 0 when every check of the scenario passes.
set -u
binary=${1:?usage: tmux-everyday.sh PATH/TO/timerdeck SCENARIO}
scenario=${2:?the scenario}
# Each start gets a server of its own, so a restart never races the previous server's exit.
starts=0
socket="timerdeck-everyday-$$-$starts"
session=deck
failures=0
# The dashboard's state goes to a scratch directory, never the user's.
state=$(mktemp -d)
tmux_() { tmux -L "$socket" "$@"; }
stop_servers() {
    local n
    for n in $(seq 0 "$starts"); do tmux -L "timerdeck-everyday-$$-$n" kill-server >/dev/null 2>&1; done
    rm -rf "$state"
}
trap stop_servers EXIT

source "$(dirname "$0")/tmux-checks.sh"

# start COMMAND: the pane runs COMMAND at 100x30, then prints its exit status.
start() {
    starts=$((starts + 1))
    socket="timerdeck-everyday-$$-$starts"
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

# tea_config: notify.toml, a one-second countdown "tea" that starts on Enter.
tea_config() {
    cat >"$state/notify.toml" <<TOML
[[timers]]
name = "tea"
drives = "countdown"
countdown = 1
start = false
TOML
}

# notify: for each terminal profile (the variables a terminal exports, inherited inside tmux), a
# one-second countdown's end writes the bell and exactly that terminal's notification sequence,
# wrapped in tmux's passthrough; a terminal with none gets the bell alone, and the alert stays on
# screen until a key.
notify() {
    tea_config
    local e=$'\e' wrapped
    # profile: name, the command's environment, the sequence as the terminal reads it ("" for none).
    local -a profiles=(
        "kitty|KITTY_WINDOW_ID=1|${e}]99;i=timerdeck:d=0;tea${e}\\${e}]99;i=timerdeck:d=1:p=body;tea ended${e}\\"
        "iTerm2|ITERM_SESSION_ID=w0t0p0:1|${e}]9;tea: tea ended"$'\a'
        "WezTerm|WEZTERM_PANE=0|${e}]9;tea: tea ended"$'\a'
        "Ghostty|GHOSTTY_RESOURCES_DIR=/usr/share/ghostty|${e}]9;tea: tea ended"$'\a'
        "rxvt-unicode|TERM=rxvt-unicode-256color|${e}]777;notify;tea;tea ended"$'\a'
        "xterm|TERM=xterm-256color|"
    )
    local profile name assignments expected
    for profile in "${profiles[@]}"; do
        IFS='|' read -r name assignments expected <<<"$profile"
        : >"$state/pane.out"
        start "env $assignments $binary --config $state/notify.toml"
        tmux_ pipe-pane -O -t "$session" "cat >>$state/pane.out"
        check "$name: the countdown is listed" "tea · Timer in default"
        tmux_ send-keys -t "$session" Enter
        check "$name: the end stays in the status bar" "tea ended — any key dismisses this"
        tmux_ send-keys -t "$session" q
        check "$name: quit" "TIMERDECK-EXIT=0"
        if [ -n "$expected" ]; then
            wrapped="${e}Ptmux;${expected//$e/$e$e}${e}\\"
        else
            wrapped=""
        fi
        if EXPECTED="$wrapped" python3 - "$state/pane.out" <<'PY'
import os, sys
data = open(sys.argv[1], "rb").read()
expected = os.environb[b"EXPECTED"]
bell = data.count(b"\a") - data.count(b"\x1b]9;") - data.count(b"\x1b]777;")
found = (expected in data) if expected else (b"\x1b]9;" not in data and b"\x1b]99;" not in data and b"\x1b]777;" not in data)
sys.exit(0 if found and bell >= 1 else 1)
PY
        then
            pass "$name: the bell and the notification's bytes"
        else
            fail "$name: the bell and the notification's bytes: $(od -c "$state/pane.out" | tail -20)"
        fi
        tmux_ kill-server >/dev/null 2>&1
    done
}

# answer: kitty's capability query, outside tmux's passthrough (TMUX unset, as in kitty itself): the
# query goes out at start; the terminal's answer, typed into the pane as a terminal sends it, is no
# key; a countdown's end then uses what the answer says it takes; with no answer (kitty before 0.36)
# the title and the body go as before.
answer() {
    tea_config
    local e=$'\e'
    local query="${e}]99;i=timerdeck-query:p=?;${e}\\"
    local two_parts="${e}]99;i=timerdeck:d=0;tea${e}\\${e}]99;i=timerdeck:d=1:p=body;tea ended${e}\\"
    # profile: name, the answer's OSC body ("" for none), the notification as the terminal reads it.
    local -a profiles=(
        "kitty taking a title only|99;i=timerdeck-query:p=?;a=focus:o=always:p=title,?|${e}]99;i=timerdeck;tea: tea ended${e}\\"
        "kitty taking a body|99;i=timerdeck-query:p=?;a=focus,report:o=always,unfocused:p=title,body,?|$two_parts"
        "kitty not answering|$two_parts"
    )
    local profile name reply expected hex
    for profile in "${profiles[@]}"; do
        IFS='|' read -r name reply expected <<<"$profile"
        if [ -z "$expected" ]; then expected=$reply reply=""; fi
        : >"$state/pane.out"
        start "env -u TMUX KITTY_WINDOW_ID=1 $binary --config $state/notify.toml"
        tmux_ pipe-pane -O -t "$session" "cat >>$state/pane.out"
        check "$name: the countdown is listed" "tea · Timer in default"
        if eventually 10 grep -qF -- "$query" "$state/pane.out"; then
            pass "$name: the query went out"
        else
            fail "$name: the query went out: $(od -c "$state/pane.out" | head -5)"
        fi
        if [ -n "$reply" ]; then
            hex=$(printf '%s' "${e}]${reply}${e}\\" | od -An -tx1 | tr -s ' \n' ' ')
            # shellcheck disable=SC2086
            tmux_ send-keys -t "$session" -H $hex
        fi
        tmux_ send-keys -t "$session" Enter
        check "$name: the end stays in the status bar" "tea ended — any key dismisses this"
        if screen | grep -qF "does nothing here"; then fail "$name: the answer was taken as a key"; else pass "$name: the answer is no key"; fi
        tmux_ send-keys -t "$session" q
        check "$name: quit" "TIMERDECK-EXIT=0"
        if EXPECTED="$expected" python3 -c '
import os, sys
data = open(sys.argv[1], "rb").read()
expected = os.environb[b"EXPECTED"]
sys.exit(0 if expected in data and data.count(b"\x1b]99;i=timerdeck;") + data.count(b"\x1b]99;i=timerdeck:") == expected.count(b"\x1b]99;") else 1)
' "$state/pane.out"; then
            pass "$name: the notification's bytes"
        else
            fail "$name: the notification's bytes: $(od -c "$state/pane.out" | tail -20)"
        fi
        tmux_ kill-server >/dev/null 2>&1
    done
}

# restarted: the session's pane is gone and a new one runs COMMAND.
restarted() {
    tmux_ kill-server >/dev/null 2>&1
    start "$1"
}

# kept NAME: the state file holds exactly one line for the timer NAME.
kept() {
    if [ "$(grep -cE "^(countdown|alarm|stopwatch)	$1	" "$state/timerdeck/timers.state" 2>/dev/null)" = 1 ]; then
        pass "$1 is kept once"
    else
        fail "$1 is kept once"
    fi
}

restart() {
    local at
    at=$(date -d '+2 hours' +%H:%M)
    cat >"$state/restart.toml" <<TOML
[[timers]]
name = "tea"
drives = "countdown"
countdown = 600
start = false

[[timers]]
name = "run"
drives = "stopwatch"
interval = "100ms"

[[timers]]
name = "lunch"
mechanism = "alarm"
first_fire = "$at"
TOML
    start "$binary --config $state/restart.toml"
    check "the stopwatch runs" "run · stopwatch, 0 laps"
    tmux_ send-keys -t "$session" Enter
    check "the countdown counts" "[ Resend (59"
    tmux_ send-keys -t "$session" Down
    tmux_ send-keys -t "$session" L
    check "a lap" "run: lap 1"
    tmux_ send-keys -t "$session" q
    check "quit" "TIMERDECK-EXIT=0"
    for name in tea run lunch; do kept "$name"; done
    restarted "$binary --config $state/restart.toml"
    check "every timer is back after q" "restored 3 timers"
    check "the countdown goes on" "[ Resend (59"
    check "the stopwatch keeps its lap" "run · stopwatch, 1 lap"
    check "the alarm is set" "lunch · alarm on the wall clock in "
    local pid
    pid=$(pgrep -x -P "$(tmux_ display-message -p -t "$session" '#{pane_pid}')" timerdeck)
    kill -9 "$pid"
    check "killed" "TIMERDECK-EXIT=137"
    for name in tea run lunch; do kept "$name"; done
    # A kill during a save leaves a temporary file beside it, never a partial timers.state.
    if head -1 "$state/timerdeck/timers.state" | grep -qx "timerdeck-state 3"; then
        pass "the state file is whole"
    else
        fail "the state file is whole"
    fi
    restarted "$binary --config $state/restart.toml"
    check "every timer is back after kill -9" "restored 3 timers"
    check "the stopwatch still has its lap" "run · stopwatch, 1 lap"
    if [ "$(screen | grep -c 'run · stopwatch')" = 1 ]; then pass "no timer doubled"; else fail "no timer doubled"; fi
    tmux_ send-keys -t "$session" q
    check "quit" "TIMERDECK-EXIT=0"
}

# two: a second dashboard on the same timers file is refused at start, naming the first one's
# process, and the first one's timers are kept whole.
two() {
    cat >"$state/two.toml" <<TOML
[[timers]]
name = "tea"
drives = "countdown"
countdown = 600
start = false
TOML
    start "$binary --config $state/two.toml"
    check "the first dashboard runs" "tea · Timer in default"
    tmux_ send-keys -t "$session" Enter
    check "its countdown counts" "[ Resend (59"
    local first
    first=$(pgrep -x -P "$(tmux_ display-message -p -t "$session" '#{pane_pid}')" timerdeck)
    # The second one in a terminal of its own, on the same state directory.
    tmux_ new-session -d -s second -x 100 -y 30 \
        "export TERM=xterm-256color XDG_STATE_HOME=$state; $binary --config $state/two.toml; printf 'SECOND-EXIT=%s\\n' \$?; sleep 60"
    local refused=false
    for _ in $(seq 1 150); do
        if tmux_ capture-pane -t second -p | grep -q "SECOND-EXIT=2"; then refused=true; break; fi
        sleep 0.1
    done
    if $refused; then pass "the second dashboard exits with status 2"; else fail "the second dashboard exits with status 2"; fi
    if tmux_ capture-pane -t second -p -J | grep -q "kept by another timerdeck (process $first)"; then
        pass "it names the first one's process ($first)"
    else
        fail "it names the first one's process ($first): $(tmux_ capture-pane -t second -p -J)"
    fi
    check "the first one goes on" "[ Resend (5"
    tmux_ send-keys -t "$session" q
    check "quit" "TIMERDECK-EXIT=0"
    kept tea
    if grep -q "^countdown	tea	" "$state/timerdeck/timers.state" 2>/dev/null && ! grep -q "idle" "$state/timerdeck/timers.state"; then
        pass "the first one's running countdown is kept"
    else
        fail "the first one's running countdown is kept: $(cat "$state/timerdeck/timers.state" 2>/dev/null)"
    fi
}

case "$scenario" in
alarm) alarm ;;
laps) laps ;;
restart) restart ;;
notify) notify ;;
answer) answer ;;
two) two ;;
*) fail "unknown scenario $scenario" ;;
esac
exit $((failures > 0))
