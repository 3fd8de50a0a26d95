#!/usr/bin/env bash
# CPU of the dashboard at 120x40 in tmux, with and without the help overlay: /proc/PID/stat utime+stime.
set -u
binary=${1:?binary}; seconds=${2:-10}
sock=measure-$$; state=$(mktemp -d)
tmux -L $sock -f /dev/null new-session -d -s m -x 120 -y 40 "env TERM=xterm-256color XDG_STATE_HOME=$state $binary"
sleep 2
pid=$(pgrep -n -f "^$binary\$")
ticks() { awk '{print $14 + $15}' /proc/$pid/stat; }
measure() { local a=$(ticks); sleep "$seconds"; local b=$(ticks); awk -v n="$1" -v d=$((b - a)) -v s="$seconds" -v hz=$(getconf CLK_TCK) 'BEGIN { printf "%s: %.1f%% of a core (%d ticks in %ds)\n", n, d * 100 / (s * hz), d, s }'; }
measure "no overlay"
tmux -L $sock send-keys -t m '?'; sleep 1
tmux -L $sock capture-pane -t m -p | grep -c "Keys (? or Esc" | sed 's/^/overlay shown: /'
measure "help overlay"
tmux -L $sock send-keys -t m q; sleep 1
tmux -L $sock kill-server 2>/dev/null; rm -rf "$state"
