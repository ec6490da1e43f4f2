#!/usr/bin/env bash
# Installs Ludeme's languages into Helix: the queries (into the Helix runtime folder of your
# configuration) and, unless your languages.toml already has them, the language, server and grammar
# entries; then builds the grammars with `hx --grammar build` when `hx` is on PATH.
#
#   editors/helix/install.sh          # XDG_CONFIG_HOME (or ~/.config)/helix
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
grammars="$(cd "$here/../../grammars" && pwd)"
config="${XDG_CONFIG_HOME:-$HOME/.config}/helix"

# language and grammar folder
languages=(
  "egg tree-sitter-egg"
  "ludi tree-sitter-ludi"
  "gdl tree-sitter-gdl/kif"
  "hrf tree-sitter-gdl/infix"
)

for entry in "${languages[@]}"; do
  read -r language folder <<<"$entry"
  queries="$config/runtime/queries/$language"
  mkdir -p "$queries"
  # The grammars' highlights use the Neovim capture names; Helix names two of them differently.
  sed -e 's/@number\b/@constant.numeric/g' \
      -e 's/@keyword\.conditional\b/@keyword.control.conditional/g' \
      "$grammars/$folder/queries/highlights.scm" >"$queries/highlights.scm"
  for optional in locals.scm injections.scm; do
    if [[ -f "$grammars/$folder/queries/$optional" ]]; then
      cp "$grammars/$folder/queries/$optional" "$queries/$optional"
    fi
  done
  # Helix's indent captures (@indent/@outdent) differ from nvim-treesitter's.
  cp "$here/indents/$language.scm" "$queries/indents.scm"
done
echo "queries installed in $config/runtime/queries/{egg,ludi,gdl,hrf}"

toml="$config/languages.toml"
if [[ -f "$toml" ]] && grep -q '^\[language-server\.ludeme\]' "$toml"; then
  echo "$toml already configures ludeme; left as it is"
else
  sed -e "s|@GRAMMARS@|$grammars|g" "$here/languages.toml" >>"$toml"
  echo "appended the ludeme languages to $toml"
fi

if command -v hx >/dev/null; then
  hx --grammar build
else
  echo "hx is not on PATH: run 'hx --grammar build' to compile the grammars"
fi
