# Sourced by the test scripts beside it: where the plugin, the repository, Neovim and the
# `ludeme` binary are (NVIM and LUDEME_BIN override the last two).
plugin="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
repository="$(cd "$plugin/../.." && pwd)"
nvim="${NVIM:-nvim}"
ludeme="${LUDEME_BIN:-$repository/target/debug/ludeme}"
[[ -x "$ludeme" ]] || { echo "no ludeme binary at $ludeme: run cargo build or set LUDEME_BIN" >&2; exit 2; }
