#!/usr/bin/env bash
# autoplay's two-player Sudoku engine against NineDigits, the CodeCup 2024 winner (maksverver/codecup-sudoku), through
# `autoplay referee sudoku`: N games, each side first in half, both at the same priority; prints the referee's table
# (wins per side, first and second, thinking time used on average and at most, how the games ended), then how far
# the referee's clock ran ahead of autoplay's own count (the margin its time manager keeps must cover it).
#
# Usage: bash scripts/bench/duel.sh PEER_DIR [GAMES]
#   PEER_DIR  a checkout of maksverver/codecup-sudoku that you provide. Its code has no licence: nothing of it is
#             copied into this repository. It is copied into $PEER_BUILD (default ~/.cache/autoplay/ninedigits-build)
#             and built there as its competition entry: the combined single-file player (`make combined`'s
#             source), compiled with -O2 -march=native and without LOCAL_BUILD, so that it keeps its competition time
#             limit of 28 s of the 30 s a game.
#   GAMES     how many games (default 20; even, so that each side starts half of them).
# Environment: SEED (default 1) seeds the referee's games; TIME_LIMIT is not changed: 30 s a player a game, as in
# the competition. PIN (default 1 where the machine has two processors or more) pins each player to a processor of
# its own with taskset: autoplay to processor 0, NineDigits to processor 1. NineDigits thinks on one; autoplay's
# endgame search would use every processor it may, so unpinned it could get twice the peer's CPU. PIN=0 runs both
# unpinned.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/env.sh
if [ $# -lt 1 ] || [ ! -f "$1/src/player.cc" ] || [ ! -f "$1/combine-sources.sh" ]; then
    echo "usage: bash scripts/bench/duel.sh PEER_DIR [GAMES]   (PEER_DIR: a checkout of maksverver/codecup-sudoku)" >&2
    exit 2
fi
peer_dir=$(cd "$1" && pwd)
games=${2:-20}
if ! [[ $games =~ ^[0-9]+$ ]] || [ "$games" -lt 2 ] || [ $((games % 2)) -ne 0 ]; then
    echo "bench-duel.sh: GAMES must be an even number of at least 2, not '$games'" >&2
    exit 2
fi
build=${PEER_BUILD:-$HOME/.cache/autoplay/ninedigits-build}
mkdir -p "$build"

# The peer, built outside this repository as its competition entry.
rm -rf "$build/src"
cp -r "$peer_dir/." "$build/src"
(
    cd "$build/src"
    sources=(src/check.h src/check.cc src/options.h src/options.cc src/counters.h src/counters.cc src/random.h
        src/random.cc src/state.h src/state.cc src/memo.h src/analysis.h src/analysis.cc src/logging.h src/player.cc)
    # (Its script asks /bin/sh for pipefail, which Debian's dash lacks.)
    bash ./combine-sources.sh "${sources[@]}" >"$build/combined-player.cc"
)
g++ -std=c++20 -O2 -march=native -pipe -o "$build/ninedigits" "$build/combined-player.cc" -lm
commit=$(git -C "$peer_dir" rev-parse --short HEAD 2>/dev/null || echo "unknown")
echo "NineDigits: $peer_dir at commit $commit, built into $build/ninedigits" >&2

cargo build --release --locked >&2
logs=$build/logs-$(date +%Y%m%d-%H%M%S)
ours="$AUTOPLAY duel sudoku"
peer="$build/ninedigits"
if [ "${PIN:-1}" = 1 ] && [ "$(nproc)" -ge 2 ]; then
    ours="taskset -c 0 $ours"
    peer="taskset -c 1 $peer"
    echo "each player on a processor of its own: autoplay on 0, NineDigits on 1" >&2
else
    echo "both players unpinned, on any of $(nproc) processors" >&2
fi
"$AUTOPLAY" referee sudoku "$ours" "$peer" --games "$games" --seed "${SEED:-1}" --log "$logs"

# The clock's margin, measured: per game, autoplay's thinking time by the referee's clock (from each line sent to
# the answer read) less its own count (from each line read to the answer written), which it logs on Quit. The
# difference is process start, pipes and scheduling; autoplay keeps 3 s in reserve for it.
for log in "$logs"/game-*-A.log; do
    game=$(basename "$log" | sed 's/game-0*\([0-9][0-9]*\)-A.log/\1/')
    own=$(sed -n 's/.*thinking time used \([0-9.]*\) s.*/\1/p' "$log" | tail -1)
    referee=$(awk -F'\t' -v g="$game" '$1 == g { print $5 }' "$logs/games.tsv")
    [ -n "$own" ] && [ -n "$referee" ] && echo "$referee $own"
done | awk '{ gap = $1 - $2; if (gap > max) max = gap; sum += gap; n++ }
    END { if (n) printf "autoplay clock gap (referee - own count) over %d games: mean %.3f s, max %.3f s\n", n, sum / n, max }'
echo "logs: $logs (games.tsv, and each player's reasoning)"
