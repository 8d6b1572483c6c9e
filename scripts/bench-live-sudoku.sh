#!/usr/bin/env bash
# Live benchmark: sgt-solo 9x9 games (seeded, difficulty "trivial" so every game has many empty cells) on a virtual
# display, each filled by `autoplay play sudoku`; prints per game the entries, the time until the last entry was
# typed and until the win was confirmed (after sgt-solo's completion flash), then the means.
# Usage: bash scripts/bench-live-sudoku.sh [GAMES]   (needs a release build: cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/xsession.sh
games=${1:-10}
start_xsession "$(free_display 150)"
trap stop_xsession EXIT
printf '%-8s %8s %14s %10s\n' game entries "last entry ms" "won ms"
for i in $(seq "$games"); do
    /usr/games/sgt-solo "3x3dt#bench-$i" >/dev/null 2>&1 &
    solo=$!
    wait_for_window Solo
    "$AUTOPLAY" play sudoku --json 2>/dev/null |
        sed -E 's/.*"moves":([0-9]+).*"last_move_millis":([0-9]+),"millis":([0-9]+).*/\1 \2 \3/' |
        { read -r moves last won; printf '%-8s %8s %14s %10s\n' "$i" "$moves" "$last" "$won"; }
    kill "$solo"; wait "$solo" 2>/dev/null || true
done | awk '{ print; n++; e += $2; l += $3; w += $4 } END { if (n) printf "mean over %d games: %.1f entries, last entry %.0f ms, won %.0f ms\n", n, e / n, l / n, w / n }'
