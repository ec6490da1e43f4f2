#!/usr/bin/env bash
# SWI-Prolog peer benchmark for issue 4: random playouts of ticTacToe and connectFour under the
# plain GDL -> Prolog translation, beside `ludeme bench` on the same games in the same run.
#
#   bench/prolog/run.sh [SECONDS]        # default 10 s per game and engine
#
# Environment: LUDEME (default target/release/ludeme; skipped if absent), CORPUS (default
# ../shared/corpus/gdl/ggp-repository relative to the project root), SEED (default 1),
# GAMES (default "ticTacToe connectFour"), OUT (where the translations and JSON reports go;
# default a fresh temporary directory).
set -euo pipefail

seconds="${1:-10}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="${CORPUS:-$root/../shared/corpus/gdl/ggp-repository}"
ludeme="${LUDEME:-$root/target/release/ludeme}"
seed="${SEED:-1}"
games="${GAMES:-ticTacToe connectFour}"
out="${OUT:-$(mktemp -d -t ludeme-prolog-bench.XXXXXX)}"
TIMEFORMAT='%U %S'
mkdir -p "$out"

command -v swipl >/dev/null || { echo "run.sh: swipl not found (apt-get install swi-prolog-nox)" >&2; exit 1; }

echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $(swipl --version)"
if [ -x "$ludeme" ]; then
    echo "# ludeme: $ludeme (built $(date -u -r "$ludeme" '+%Y-%m-%d %H:%M UTC'))"
else
    echo "# ludeme: $ludeme not found, skipped (cargo build --release)"
fi
echo "# $seconds s per game and engine, one thread each, one after the other; reports in $out"

for game in $games; do
    kif="$corpus/$game.kif"
    python3 "$here/gdl2pl.py" "$kif" > "$out/$game.pl"
    # `time` records each process's CPU seconds (user + system, loading included): on this
    # shared machine wall-clock rates depend on what the neighbours do, CPU rates much less.
    { time swipl -O "$here/playouts.pl" --seconds="$seconds" --seed="$seed" --json "$out/$game.pl" \
        > "$out/$game.prolog.json" ; } 2> "$out/$game.prolog.cpu"
    if [ -x "$ludeme" ]; then
        { time "$ludeme" bench "$kif" --seconds "$seconds" --format json \
            > "$out/$game.ludeme.json" ; } 2> "$out/$game.ludeme.cpu"
    fi
done

python3 - "$out" $games <<'EOF'
import json, os, sys
out, games = sys.argv[1], sys.argv[2:]

def load(path):
    if not os.path.exists(path):
        return None
    r = json.load(open(path))
    user, system = open(path[:-len("json")] + "cpu").read().split()[-2:]
    r["cpu"] = float(user) + float(system)
    return r

def outcome(r, role):
    shares = r["outcomes"].get(role, {})
    return "%s %s" % (role, ", ".join("%s: %.1f %%" % (v, 100 * s) for v, s in
                                      sorted(shares.items(), key=lambda kv: -int(kv[0]))))

print("| game | engine | playouts | playouts/s (wall) | playouts per CPU s | avg plies | outcomes |")
print("|---|---|---|---|---|---|---|")
for game in games:
    first = load(os.path.join(out, game + ".prolog.json")) or load(os.path.join(out, game + ".ludeme.json"))
    role = next(iter(first["outcomes"]))  # the Prolog report lists the roles in the game's order
    for engine in ("prolog", "ludeme"):
        r = load(os.path.join(out, "%s.%s.json" % (game, engine)))
        if r is None:
            continue
        name = r.get("prolog", "SWI-Prolog") if engine == "prolog" else "ludeme bench"
        print("| %s | %s | %d | %.0f | %.0f | %.2f | %s |" % (game, name, r["playouts"],
              r["playouts_per_second"], r["playouts"] / r["cpu"], r["avg_plies"], outcome(r, role)))
    p = load(os.path.join(out, game + ".prolog.json"))
    l = load(os.path.join(out, game + ".ludeme.json"))
    if p and l and p["playouts_per_second"] > 0:
        print("| %s | ratio ludeme / SWI-Prolog | | %.1f | %.1f | | |" % (
            game, l["playouts_per_second"] / p["playouts_per_second"],
            (l["playouts"] / l["cpu"]) / (p["playouts"] / p["cpu"])))
EOF
