#!/usr/bin/env bash
# Runs every test: installs the Debian packages the tests drive when this machine lacks them, then
# `swift test` (arguments are passed on, e.g. `./test.sh --filter Snapshot`).
#
# The library's tests need the toolchain alone:
#   swift test --filter 'RunLoopKitTests|RunLoopKitFoundationCompatTests|DocumentationExampleTests'
# The app's suites also drive tmux (a real terminal), python3 (the loopback collector),
# rsvg-convert (the plot's SVG as PNG), Debian's prometheus (a real remote-write receiver, started
# by the tests on loopback, behind TLS and basic auth for some), openssl (the tests' certificates),
# htpasswd (bcrypt hashes for Prometheus's basic auth) and pgrep.
set -euo pipefail
cd "$(dirname "$0")"

missing=()
pkg-config --exists ncursesw 2>/dev/null || missing+=(libncurses-dev)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v rsvg-convert >/dev/null 2>&1 || missing+=(librsvg2-bin)
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)
command -v pgrep >/dev/null 2>&1 || missing+=(procps)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v htpasswd >/dev/null 2>&1 || missing+=(apache2-utils)

if [ ${#missing[@]} -gt 0 ]; then
    echo "test.sh: installing ${missing[*]} (Debian packages the tests use)" >&2
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || {
            echo "test.sh: run as root, or install first: apt-get install ${missing[*]}" >&2
            exit 1
        }
        as_root=(sudo)
    fi
    # No package's service may start (Debian's prometheus would): the tests start their own
    # Prometheus on loopback. A policy-rc.d answering 101 tells the maintainer scripts so.
    policy=/usr/sbin/policy-rc.d
    added_policy=false
    if [ ! -e "$policy" ]; then
        "${as_root[@]}" sh -c "printf '#!/bin/sh\nexit 101\n' >$policy && chmod 755 $policy" && added_policy=true
    fi
    status=0
    "${as_root[@]}" apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}" || status=$?
    if $added_policy; then "${as_root[@]}" rm -f "$policy"; fi
    if [ $status -ne 0 ]; then
        echo "test.sh: apt-get failed ($status); install by hand: apt-get install ${missing[*]}" >&2
        exit $status
    fi
fi

swift test "$@"
