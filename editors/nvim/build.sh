#!/usr/bin/env bash
# Compiles the tree-sitter parsers of the four syntaxes into parser/*.so, where Neovim looks for
# them on 'runtimepath'. Needs only a C compiler: the generated parser.c files are committed.
# The queries are not copied: queries/<language> are links into grammars/*/queries.
#
#   editors/nvim/build.sh            # uses $CC, or cc
set -euo pipefail
plugin="$(cd "$(dirname "$0")" && pwd)"
grammars="$plugin/../../grammars"
cc="${CC:-cc}"
mkdir -p "$plugin/parser"

# language name (the parser's symbol tree_sitter_<name>) and grammar folder
while read -r language folder; do
  src="$grammars/$folder/src"
  sources=("$src/parser.c")
  if [[ -f "$src/scanner.c" ]]; then sources+=("$src/scanner.c"); fi
  # Build into a temporary file and move it: a running Neovim keeps the old library mapped.
  "$cc" -shared -fPIC -O2 -std=c11 -I "$src" "${sources[@]}" -o "$plugin/parser/$language.so.tmp"
  mv "$plugin/parser/$language.so.tmp" "$plugin/parser/$language.so"
  echo "built parser/$language.so"
done <<'LIST'
egg tree-sitter-egg
ludi tree-sitter-ludi
gdl tree-sitter-gdl/kif
hrf tree-sitter-gdl/infix
LIST
