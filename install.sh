#!/usr/bin/env bash
# Installs timerdeck under a prefix (default ~/.local): the release binary in PREFIX/bin, its manual
# page in PREFIX/share/man/man1 and completions for bash, zsh and fish under PREFIX/share. Nothing
# else is needed beside the binary: the default config and the sample route are compiled into it.
# Usage: ./install.sh [PREFIX]
set -euo pipefail
prefix=${1:-$HOME/.local}
cd "$(dirname "$0")"

# The manual page comes from the command's own help (swift-argument-parser's generate-manual
# plugin), which builds the package in release mode first: that build is the one installed.
swift package generate-manual
binary="$(swift build -c release --show-bin-path)/timerdeck"
manual=$(find .build/plugins/GenerateManual -name timerdeck.1 | head -1)
[ -n "$manual" ] || { echo "install.sh: generate-manual wrote no timerdeck.1" >&2; exit 1; }

install -D -m 755 "$binary" "$prefix/bin/timerdeck"
install -D -m 644 "$manual" "$prefix/share/man/man1/timerdeck.1"
# generate-manual writes a command with subcommands as if one were required; without one the
# dashboard runs, so the synopsis marks it optional (as `timerdeck --help`'s usage shows).
sed -i 's/^\.Ar subcommand$/.Op Ar subcommand/' "$prefix/share/man/man1/timerdeck.1"
# Completions where each shell looks for them under a prefix; they complete file names for
# --config, --script, --trace, --record, --outbox and `plot --out`.
completions=(
    "bash:$prefix/share/bash-completion/completions/timerdeck"
    "zsh:$prefix/share/zsh/site-functions/_timerdeck"
    "fish:$prefix/share/fish/vendor_completions.d/timerdeck.fish"
)
for entry in "${completions[@]}"; do
    shell=${entry%%:*}
    path=${entry#*:}
    mkdir -p "$(dirname "$path")"
    "$binary" --generate-completion-script "$shell" >"$path"
done
echo "installed $prefix/bin/timerdeck, its manual (man timerdeck) and bash, zsh and fish completions"
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) echo "add $prefix/bin to PATH to run it as timerdeck" ;;
esac
