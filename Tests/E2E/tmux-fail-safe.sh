#!/usr/bin/env bash
# The live dashboard where a user leaves the happy path, in a real terminal (tmux): a copy of the
# binary run with its build folder hidden, too few file descriptors, a full disk, a terminal without
# reverse video, hooks still running when timerdeck ends.
# Usage: tmux-fail-safe.sh PATH/TO/timerdeck BUILD-FOLDER SCENARIO
# Scenarios: installed, descriptors, disk-full, vt52, hooks-quit, hooks-sigterm, hooks-kill9.
# Exit status 0 when every check of the scenario passes.
set -u
binary=${1:?usage: tmux-fail-safe.sh PATH/TO/timerdeck BUILD-FOLDER SCENARIO}
build=${2:?the build folder}
scenario=${3:?the scenario}
socket="timerdeck-fail-safe-$$"
session=deck
failures=0
# The dashboard's outbox and uploads go to a scratch state directory, never the user's.
state=$(mktemp -d)
tmux_() { tmux -L "$socket" "$@"; }
trap 'tmux_ kill-server >/dev/null 2>&1; rm -rf "$state"' EXIT

source "$(dirname "$0")/tmux-checks.sh"

# start COMMAND: the pane runs COMMAND at 80x24, then prints its exit status on a line of its own
# (carriage return included: a dashboard killed outright leaves the terminal raw, where a newline
# does not return to the first column) and whether the terminal echoes again (-echo if raw).
start() {
    tmux_ -f /dev/null new-session -d -s "$session" -x 80 -y 24 >/dev/null 2>&1 </dev/null \
        "export TERM=xterm-256color XDG_STATE_HOME=$state; $1; printf '\\r\\nTIMERDECK-EXIT=%s\\r\\n' \$?; stty -a | tr ' ' '\n' | grep -x -- '-\?echo'; sleep 60"
}

# restored: after the exit, the terminal is as the shell left it: echo on, main screen, no mouse.
restored() {
    if eventually 5 eval "screen | grep -qx -- '-\\?echo'" && ! screen | grep -qx -- "-echo"; then
        pass "echo is on after the exit"
    else
        fail "echo is on after the exit"
    fi
    local flags
    flags=$(tmux_ display-message -p -t "$session" '#{alternate_on}#{mouse_any_flag}')
    if [ "$flags" = "00" ]; then pass "main screen, no mouse reporting"; else fail "main screen, no mouse reporting ($flags)"; fi
}

# hooks SIGNAL: a timer's hook (a shell running sleep, so the sleep is the shell's child) is running
# when timerdeck ends by SIGNAL (q: the key); nothing of it is left afterwards.
hooks() {
    local marker=$((700000 + $$ % 100000))
    cat >"$state/hooks.toml" <<EOF
[[timers]]
name = "slow-hook"
interval = "200ms"
repeats = false
hook = "sleep $marker; echo never"
hook_limit = "10m"
EOF
    start "$binary --config $state/hooks.toml"
    if eventually 15 pgrep -f "sleep $marker" >/dev/null; then pass "the hook is running"; else fail "the hook is running"; fi
    local pid
    pid=$(pgrep -x -P "$(tmux_ display-message -p -t "$session" '#{pane_pid}')" timerdeck)
    if [ "$1" = q ]; then tmux_ send-keys -t "$session" q; else kill "-$1" "$pid"; fi
    check "timerdeck ended ($1)" "TIMERDECK-EXIT="
    if eventually 10 eval "! pgrep -f 'sleep $marker' >/dev/null"; then
        pass "no hook process is left after $1"
    else
        fail "no hook process is left after $1: $(pgrep -af "sleep $marker")"
        pkill -KILL -f "sleep $marker"
    fi
}

case $scenario in
installed)
    # A copy in a bin folder, run with an empty file system over the build folder: nothing beside
    # the binary and nothing at the path it was built at.
    mkdir "$state/bin"
    cp "$binary" "$state/bin/timerdeck"
    start "cd $state && unshare --mount --map-root-user sh -c 'mount -t tmpfs none $build && exec $state/bin/timerdeck'"
    check "the installed copy opens the dashboard" "SMS resend (S1)"
    check "its uploads sample the shipped route" "· last #" 20
    tmux_ send-keys -t "$session" q
    check "q quits with status 0" "TIMERDECK-EXIT=0"
    restored
    ;;
descriptors)
    start "ulimit -n 12; $binary"
    check "ulimit -n 12: exit 2" "TIMERDECK-EXIT=2"
    check "the message names the limit and the fix" "the limit on open files (ulimit -n) is 12"
    if screen | grep -qF "TERM"; then fail "TERM is not blamed"; else pass "TERM is not blamed"; fi
    restored
    ;;
disk-full)
    # Files of at most 100 KiB (SIGXFSZ ignored, so writes fail with EFBIG): the outbox's log soon
    # cannot grow, and samples are lost.
    start "trap '' XFSZ; ulimit -f 100; $binary --outbox $state/outbox.sqlite 2>$state/stderr; status=\$?; cat $state/stderr; (exit \$status)"
    check "the panel says samples are not saved" "NOT saved" 60
    tmux_ send-keys -t "$session" q
    check "q exits 1" "TIMERDECK-EXIT=1" 30
    check "the exit says how many samples are lost and why" "could not be saved and" 5
    restored
    ;;
vt52)
    start "env TERM=vt52 $binary"
    check "TERM=vt52: refused with what it lacks" "TERM=vt52 cannot show reverse video"
    check "TERM=vt52: exit 2" "TIMERDECK-EXIT=2"
    ;;
hooks-quit) hooks q ;;
hooks-sigterm) hooks TERM ;;
hooks-kill9) hooks KILL ;;
*)
    echo "unknown scenario $scenario"
    exit 2
    ;;
esac
[ $failures = 0 ]
