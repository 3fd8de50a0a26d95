#!/usr/bin/env bash
# A measurement, not a test (nothing runs it automatically): the CPU the dashboard takes at 120x40
# in tmux for SECONDS without and then with the help overlay, from /proc/PID/stat (utime + stime).
# Usage: help-overlay-cpu.sh ABSOLUTE/PATH/TO/timerdeck [SECONDS]     (build with -c release first)
set -u
binary=${1:?usage: help-overlay-cpu.sh ABSOLUTE/PATH/TO/timerdeck [SECONDS]}
seconds=${2:-10}
socket="timerdeck-cpu-$$"
state=$(mktemp -d)
tmux_() { tmux -L "$socket" "$@"; }
trap 'tmux_ kill-server >/dev/null 2>&1; rm -rf "$state"' EXIT

# wait_for TEXT: a bounded wait until the pane shows TEXT.
wait_for() {
    local deadline=$((SECONDS + 15))
    while [ $SECONDS -lt $deadline ]; do
        tmux_ capture-pane -t cpu -p | grep -qF -- "$1" && return 0
        sleep 0.05
    done
    echo "timed out waiting for: $1" >&2
    exit 1
}

tmux_ -f /dev/null new-session -d -s cpu -x 120 -y 40 "env TERM=xterm-256color XDG_STATE_HOME=$state $binary"
wait_for "SMS resend (S1)"
pid=$(pgrep -n -f "^$binary\$")
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
measure() {
    local before after
    before=$(ticks)
    sleep "$seconds"
    after=$(ticks)
    awk -v name="$1" -v used=$((after - before)) -v s="$seconds" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { printf "%s: %.1f%% of a core (%d ticks in %ds)\n", name, used * 100 / (s * hz), used, s }'
}
measure "no overlay"
tmux_ send-keys -t cpu '?'
wait_for "Keys (? or Esc to close)"
measure "help overlay"
tmux_ send-keys -t cpu q
