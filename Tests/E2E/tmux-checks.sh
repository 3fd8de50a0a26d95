# The checks the tmux scripts share; source it after defining tmux_ (tmux on the script's server),
# session and failures.

pass() { printf 'ok   %s [%ss]\n' "$1" "$SECONDS"; }
fail() { printf 'FAIL %s\n' "$1"; tmux_ capture-pane -t "$session" -p 2>/dev/null | sed 's/^/     | /'; failures=$((failures + 1)); }

# wait_for TEXT [SECONDS]: a bounded wait until the pane shows TEXT (lines the terminal wrapped are
# joined, so a long line still matches).
wait_for() {
    local deadline=$((SECONDS + ${2:-15}))
    while [ $SECONDS -lt $deadline ]; do
        tmux_ capture-pane -t "$session" -p -J 2>/dev/null | grep -qF -- "$1" && return 0
        sleep 0.05
    done
    return 1
}
screen() { tmux_ capture-pane -t "$session" -p; }
# eventually SECONDS COMMAND...: a bounded wait until COMMAND succeeds.
eventually() {
    local deadline=$((SECONDS + $1))
    shift
    while [ $SECONDS -lt $deadline ]; do
        "$@" && return 0
        sleep 0.05
    done
    return 1
}
check() { if wait_for "$2" "${3:-15}"; then pass "$1"; else fail "$1 (expected: $2)"; fi; }
