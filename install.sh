#!/usr/bin/env bash
# Installs timerdeck under a prefix (default ~/.local): the release dashboard in
# PREFIX/libexec/timerdeck, the program that answers `timerdeck status` alone and runs the dashboard
# for everything else as PREFIX/bin/timerdeck, the manual page in PREFIX/share/man/man1 and
# completions for bash, zsh and fish under PREFIX/share. Nothing else is needed: the default config
# and the sample route are compiled in. Only the timerdeck and timerdeck-launcher products are
# built; the manual page and the completions come from the built dashboard itself.
# Usage: ./install.sh [PREFIX]
set -euo pipefail
prefix=${1:-$HOME/.local}
cd "$(dirname "$0")"

step() { echo "install.sh: $*"; }

step "building timerdeck (swift build -c release --product timerdeck; the first build takes minutes)"
swift build -c release --product timerdeck
step "building the launcher (swift build -c release --product timerdeck-launcher)"
swift build -c release --product timerdeck-launcher
# SwiftPM's release products, through its link to the platform's folder.
binary=.build/release/timerdeck

# The dashboard first, so that bin/timerdeck never runs without it.
step "installing the dashboard $prefix/libexec/timerdeck/timerdeck"
install -D -m 755 "$binary" "$prefix/libexec/timerdeck/timerdeck"
step "installing $prefix/bin/timerdeck (answers timerdeck status alone, runs the dashboard for the rest)"
install -D -m 755 .build/release/timerdeck-launcher "$prefix/bin/timerdeck"

# The page is written by the binary's hidden `manual-page` command, from the same tables as
# `timerdeck --help`; it is complete before it replaces an installed one.
manual="$prefix/share/man/man1/timerdeck.1"
step "writing the manual page $manual"
mkdir -p "$(dirname "$manual")"
"$binary" manual-page >"$manual.new" || { rm -f "$manual.new"; exit 1; }
mv "$manual.new" "$manual"
chmod 644 "$manual"

# Completions where each shell looks for them under a prefix; they complete file names for
# --config, --script, --trace, --record, --outbox and `plot --out`, and --color's values.
completions=(
    "bash:$prefix/share/bash-completion/completions/timerdeck"
    "zsh:$prefix/share/zsh/site-functions/_timerdeck"
    "fish:$prefix/share/fish/vendor_completions.d/timerdeck.fish"
)
for entry in "${completions[@]}"; do
    shell=${entry%%:*}
    path=${entry#*:}
    step "writing the $shell completions $path"
    mkdir -p "$(dirname "$path")"
    "$binary" --generate-completion-script "$shell" >"$path"
done
step "installed $prefix/bin/timerdeck, its manual (man timerdeck) and bash, zsh and fish completions"
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) step "add $prefix/bin to PATH to run it as timerdeck" ;;
esac
