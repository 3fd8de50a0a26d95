#!/usr/bin/env bash
# The plain mode (--plain) in a real terminal (tmux), read line by line: no alternate screen, no
# escape sequences, box drawing or braille, one line per event, the dashboard's keys, r's report
# line, and the terminal as it was after q.
# Usage: tmux-plain.sh PATH/TO/timerdeck
# Exit status 0 when every check passes.
set -u
binary=${1:?usage: tmux-plain.sh PATH/TO/timerdeck}
socket="timerdeck-plain-$$"
session=plain
failures=0
state=$(mktemp -d)
tmux_() { tmux -L "$socket" "$@"; }
trap 'tmux_ kill-server >/dev/null 2>&1; rm -rf "$state"' EXIT

source "$(dirname "$0")/tmux-checks.sh"

# The output also goes to a file, read line by line below; the pane shows the same lines.
tmux_ -f /dev/null new-session -d -s "$session" -x 100 -y 30 >/dev/null 2>&1 </dev/null \
    "export TERM=xterm-256color XDG_STATE_HOME=$state; $binary --plain | tee $state/out.txt; printf 'TIMERDECK-EXIT=%s\n' \${PIPESTATUS[0]}; stty -a | tr ' ' '\n' | grep -x -- '-\?echo'; sleep 60"

check "the timers started at launch are told" "ticker started in default mode"
flags=$(tmux_ display-message -p -t "$session" '#{alternate_on}')
if [ "$flags" = "0" ]; then pass "no alternate screen"; else fail "no alternate screen ($flags)"; fi
tmux_ send-keys -t "$session" Enter
check "Enter presses the first button" "sms-default started in default mode"
check "its fires are told with their mode" "sms-default fired in default mode"
tmux_ send-keys -t "$session" t
check "t holds tracking: the default-mode timers pause" "tracking: default-mode timers paused (sms-default, ticker)"
tmux_ send-keys -t "$session" r
check "r tells every timer's state on one line" "sms-default waiting for mode (default, "
# How late the held timer fires depends on how long tracking held it, which real time cannot fix;
# the lateness in the line is checked on the virtual clock (PlainModeTests). Here: it fires again.
fires_held=$(grep -c "^sms-default fired" "$state/out.txt")
tmux_ send-keys -t "$session" t
check "t again: they resume" "tracking: default-mode timers resumed (sms-default, ticker)"
if eventually 15 eval '[ "$(grep -c "^sms-default fired" "$state/out.txt")" -gt "$fires_held" ]'; then
    pass "and the waiting timer fires again"
else
    fail "and the waiting timer fires again"
fi
tmux_ send-keys -t "$session" x
check "x invalidates the selected timer" "sms-default invalidated"
tmux_ send-keys -t "$session" q
check "q quits with status 0" "TIMERDECK-EXIT=0"
if eventually 5 eval "screen | grep -qx -- '-\\?echo'" && ! screen | grep -qx -- "-echo"; then
    pass "echo is on after the exit"
else
    fail "echo is on after the exit"
fi

# Line by line: each event on a line of its own, in the order it happened.
expected=(
    "ticker started in default mode"
    "sms-default started in default mode"
    "sms-default fired in default mode"
    "tracking: default-mode timers paused (sms-default, ticker)"
    "at "
    "tracking: default-mode timers resumed (sms-default, ticker)"
    "sms-default fired in default mode"
    "sms-default invalidated"
)
next=0
while IFS= read -r line; do
    [ $next -lt ${#expected[@]} ] && [[ $line == "${expected[$next]}"* ]] && next=$((next + 1))
done <"$state/out.txt"
if [ $next -eq ${#expected[@]} ]; then
    pass "the lines come in the order of the events"
else
    fail "the lines come in the order of the events (missing: ${expected[$next]})"
    sed 's/^/     > /' "$state/out.txt"
fi
if LC_ALL=C.UTF-8 grep -qP '\x1b|[\x{2500}-\x{257F}\x{2800}-\x{28FF}]' "$state/out.txt"; then
    fail "no escape sequence, box drawing or braille in the output"
else
    pass "no escape sequence, box drawing or braille in the output"
fi
exit $((failures > 0))
