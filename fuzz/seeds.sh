#!/usr/bin/env bash
# Rebuilds the committed seed corpus (fuzz/corpus/<target>/) from the project's own small games
# (corpus/ and tests/fixtures/, files under 4 KiB), in each target's input layout (see
# analysis/src/fuzzing.rs): a selector byte whose low two bits choose the syntax (0 EGGG, 1 Ludi,
# 2 KIF, 3 infix), then the text; `ide` adds 0xFF and offsets (two bytes each, little-endian) at
# names of the text; `distance` joins two games with 0xFF. The structure-aware targets
# (`gdl_game`, `deep`) read their bytes through `arbitrary`: their seeds are the games' bytes as
# they are, plus a few short patterns.
set -euo pipefail
cd "$(dirname "$0")"
root=..
out=corpus
rm -rf "$out"
for target in parse check format distance engine ide gdl_game deep; do
    mkdir -p "$out/$target"
done

selector() {
    case "$1" in
        *.egg) echo 0 ;;
        *.ludi) echo 1 ;;
        *.kif) echo 2 ;;
        *.hrf) echo 3 ;;
    esac
}

byte() { printf "\\x$(printf %02x "$1")"; }

mapfile -t games < <(find "$root/corpus" "$root/tests/fixtures" -type f \
    \( -name '*.egg' -o -name '*.ludi' -o -name '*.kif' -o -name '*.hrf' \) -size -4k | sort)

previous=""
for game in "${games[@]}"; do
    name=$(basename "$(dirname "$game")")-$(basename "$game")
    s=$(selector "$game")
    { byte "$s"; cat "$game"; } > "$out/check/$name"
    { byte "$s"; cat "$game"; } > "$out/format/$name"
    # The high bits: the parse target's edit, the engine's seed.
    { byte $((s | (${#name} % 64) << 2)); cat "$game"; } > "$out/parse/$name"
    { byte $((s | (${#name} % 64) << 2)); cat "$game"; } > "$out/engine/$name"
    {
        byte "$s"
        cat "$game"
        byte 255
        # Up to eight names of the text, spread over it.
        mapfile -t names < <(grep -bo '[A-Za-z?][A-Za-z0-9_?-]*' "$game" | cut -d: -f1)
        count=${#names[@]}
        for k in 0 1 2 3 4 5 6 7; do
            ((count > 0)) || break
            offset=$((names[k * count / 8] + 1))
            byte $((offset & 255))
            byte $((offset >> 8))
        done
    } > "$out/ide/$name"
    if [[ -n "$previous" ]]; then
        {
            byte $((s | $(selector "$previous") << 2))
            cat "$game"
            byte 255
            cat "$previous"
        } > "$out/distance/$name"
    fi
    previous=$game
    case "$game" in
        *.kif | *.hrf) cp "$game" "$out/gdl_game/$name" ;;
    esac
done
# Arbitrary bytes for the structure-aware targets: zeros (the first choice everywhere, size 0),
# ones, and runs that reach the larger sizes.
for pattern in 00 01 02 03 40 7f 80 c0 ff; do
    for length in 8 32; do
        head -c "$length" /dev/zero | tr '\0' "\\$(printf %03o "0x$pattern")" \
            > "$out/deep/$pattern-$length"
    done
done
cp "$out/gdl_game/"* "$out/deep/"
du -sh "$out"
for target in "$out"/*; do
    echo "$(basename "$target"): $(find "$target" -type f | wc -l) seeds"
done
