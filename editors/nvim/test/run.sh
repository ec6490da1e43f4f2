#!/usr/bin/env bash
# Runs the headless Neovim test: builds the parsers, then starts Neovim with nothing but the plugin
# on 'runtimepath' and the `ludeme` binary on PATH.
#
#   NVIM=/path/to/nvim LUDEME_BIN=/path/to/ludeme editors/nvim/test/run.sh
set -euo pipefail
source "$(dirname "$0")/paths.sh"

"$plugin/build.sh"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
ln -s "$ludeme" "$bin/ludeme"
# Helix is not installed here; its install script runs into a scratch configuration so that the
# Neovim test can check that the queries it installs compile against the same parsers.
XDG_CONFIG_HOME="$bin/config" PATH="/usr/bin:/bin" "$repository/editors/helix/install.sh" >/dev/null
export LUDEME_HELIX_QUERIES="$bin/config/helix/runtime/queries"
PATH="$bin:$PATH" "$nvim" --clean --headless --cmd "set rtp^=$plugin" -l "$plugin/test/run.lua"
