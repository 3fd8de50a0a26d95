#!/usr/bin/env bash
# Runs every test: installs the Debian packages the tests use when this machine lacks them, then
# `swift test` (arguments are passed on, e.g. `./test.sh --filter Snapshot`).
#
# The library's tests need the toolchain alone:
#   swift test --filter 'RunLoopKitTests|RunLoopKitTestingTests|RunLoopKitFoundationCompatTests|DocumentationExampleTests'
# The packages are those of Tests/requirements.txt, each line a package, the kind of what it
# provides, its name and why: a command (tmux, prometheus, ...) must be on PATH, a library
# (libev.so.4, ...) known to the dynamic loader, a build package installed.
set -euo pipefail
cd "$(dirname "$0")"

# present KIND NAME PACKAGE: whether this machine has what the line names.
present() {
    case $1 in
    command) command -v "$2" >/dev/null 2>&1 ;;
    library) /sbin/ldconfig -p | awk -v soname="$2" '$1 == soname { found = 1 } END { exit !found }' ;;
    build) [ "$(dpkg-query -W -f='${db:Status-Status}' "$3" 2>/dev/null)" = installed ] ;;
    *)
        echo "test.sh: Tests/requirements.txt: unknown kind '$1' for $3" >&2
        exit 1
        ;;
    esac
}

missing=()
while read -r package kind name _; do
    case $package in '' | '#'*) continue ;; esac
    if ! present "$kind" "$name" "$package" && [[ " ${missing[*]} " != *" $package "* ]]; then
        missing+=("$package")
    fi
done <Tests/requirements.txt

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
