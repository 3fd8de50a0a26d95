#!/usr/bin/env bash
# Colour in a real terminal (tmux, TERM=xterm-256color, which has 256 colours): the escape
# sequences the pane received, read back with capture-pane -e. NO_COLOR=1 gives no colour but keeps
# bold and reverse; --color always colours in spite of it; a [theme] colour given as #rrggbb comes
# out as the nearest of the 256; --color never gives none.
# Usage: tmux-colour.sh PATH/TO/timerdeck
# Exit status 0 when every check passes.
set -u
binary=${1:?usage: tmux-colour.sh PATH/TO/timerdeck}
socket="timerdeck-colour-$$"
session=colour
failures=0
state=$(mktemp -d)
tmux_() { tmux -L "$socket" "$@"; }
trap 'tmux_ kill-server >/dev/null 2>&1; rm -rf "$state"' EXIT

source "$(dirname "$0")/tmux-checks.sh"

printf '[theme]\nname = "light"\naccent = "#d75f00"\n' >"$state/light.toml"

# run ENVIRONMENT OPTIONS: the dashboard until its first screen is up; then the pane's escapes are in $state/escapes.
run() {
    tmux_ -f /dev/null new-session -d -s "$session" -x 80 -y 24 >/dev/null 2>&1 </dev/null \
        "unset NO_COLOR; export TERM=xterm-256color XDG_STATE_HOME=$state $1; $binary $2; sleep 60"
    wait_for "SMS resend (S1)" 15
    sleep 0.3
    tmux_ capture-pane -t "$session" -p -e >"$state/escapes"
    tmux_ send-keys -t "$session" q
    sleep 0.3
    tmux_ kill-session -t "$session"
}
# colours: whether the pane received a foreground colour (ESC [ 3x or ESC [ 38;5;N).
colours() { grep -qP '\x1b\[(?:[0-9;]*;)?(?:3[0-7]|38;5;[0-9]+)m' "$state/escapes"; }

run "NO_COLOR=1" ""
if colours; then fail "NO_COLOR=1: no colour"; else pass "NO_COLOR=1: no colour"; fi
if grep -qP '\x1b\[[0-9;]*7[;m]' "$state/escapes" && grep -qP '\x1b\[[0-9;]*1[;m]' "$state/escapes"; then
    pass "NO_COLOR=1: bold and reverse still mark the states"
else
    fail "NO_COLOR=1: bold and reverse still mark the states"
fi
run "NO_COLOR=1" "--color always"
if colours; then pass "--color always colours in spite of NO_COLOR"; else fail "--color always colours in spite of NO_COLOR"; fi
run "" "--color never"
if colours; then fail "--color never: no colour"; else pass "--color never: no colour"; fi
run "" "--config $state/light.toml"
if grep -qF $'\e[38;5;166m' "$state/escapes"; then
    pass "#d75f00 is shown as the nearest of 256 colours (166)"
else
    fail "#d75f00 is shown as the nearest of 256 colours (166)"
fi
exit $((failures > 0))
