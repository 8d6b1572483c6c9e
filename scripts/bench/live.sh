#!/usr/bin/env bash
# Live benchmark: GAMES seeded games each of sgt-solo 9x9 (difficulty "trivial", so many empty cells) and sgt-flood
# 14x14 (6 colours) on a virtual display, each played to the end by `autoplay play`, with BUSY busy processes
# beside it (scripts/busy.sh; 0 for an idle machine). Prints per game the moves, the time until the last move's
# input and until the win was confirmed, the whole process's wall time, and per game kind the median wall time.
# Beside each game, the same board is played open-loop twice (`autoplay bench open-loop`: a script that knows
# the moves, waits only for each move's board to change and hold still, and checks nothing), with events sent at
# once ("instant ms") and as the bot sends them, held as a person holds them ("person ms"): the floors the bot's
# whole process is measured against. Exits non-zero if any game was not won (so "N games in a row won" is what it
# measures).
# Usage: bash scripts/bench/live.sh [GAMES] [BUSY]   (default 5 games, idle; needs `cargo build --release`)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/env.sh
source scripts/lib/xsession.sh
games=${1:-5}
busy=${2:-0}
start_xsession "$(free_display 150)"
load=()
trap 'kill "${load[@]}" 2>/dev/null || true; stop_xsession' EXIT
if [ "$busy" -gt 0 ]; then
    bash scripts/busy.sh "$busy" &
    load+=($!)
fi
results=$(mktemp)
lost=0
printf '%-7s %-10s %6s %14s %10s %10s %11s %10s\n' kind seed moves "last move ms" "won ms" "wall ms" "instant ms" \
    "person ms"
start_game() { # KIND I
    case $1 in
        sudoku) /usr/games/sgt-solo "3x3dt#bench-$2" >/dev/null 2>&1 & game=$!; wait_for_window Solo ;;
        flood) /usr/games/sgt-flood "14x14c6m0#bench-$2" >/dev/null 2>&1 & game=$!; wait_for_window Flood ;;
    esac
}
title() { case $1 in sudoku) echo Solo ;; flood) echo Flood ;; esac; }
open_loop() { # KIND I TOUCH: the open loop's time on a new game of the same board, in ms
    start_game "$1" "$2"
    "$AUTOPLAY" bench open-loop "$1" --window "$(title "$1")" --touch "$3" --json 2>/dev/null \
        | grep -o '"millis":[0-9]*' | cut -d: -f2 || echo -
    kill "$game"; wait "$game" 2>/dev/null || true
}
for kind in sudoku flood; do
    for i in $(seq "$games"); do
        instant=$(open_loop "$kind" "$i" instant)
        person=$(open_loop "$kind" "$i" person)
        start_game "$kind" "$i"
        started=$(date +%s%N)
        if report=$("$AUTOPLAY" play "$kind" --json 2>/tmp/bench-live-$kind-$i.log); then :; else lost=$((lost + 1)); fi
        wall=$(( ($(date +%s%N) - started) / 1000000 ))
        won=$(echo "$report" | grep -o '"won":[a-z]*' | cut -d: -f2)
        moves=$(echo "$report" | grep -o '"moves":[0-9]*' | cut -d: -f2)
        last=$(echo "$report" | grep -o '"last_move_millis":[0-9]*' | cut -d: -f2)
        millis=$(echo "$report" | grep -o '"millis":[0-9]*' | tail -1 | cut -d: -f2)
        [ "$won" = true ] || { echo "game $kind bench-$i not won: see /tmp/bench-live-$kind-$i.log" >&2; tail -3 "/tmp/bench-live-$kind-$i.log" >&2; }
        printf '%-7s %-10s %6s %14s %10s %10s %11s %10s\n' "$kind" "bench-$i" "${moves:--}" "${last:--}" "${millis:--}" \
            "$wall" "${instant:--}" "${person:--}"
        echo "$kind $wall" >>"$results"
        kill "$game"; wait "$game" 2>/dev/null || true
    done
done
for kind in sudoku flood; do
    grep "^$kind " "$results" | sort -n -k2 | awk -v kind="$kind" -v busy="$busy" '{ w[NR] = $2 } END { if (NR) printf "%s: median wall %d ms over %d games (busy %d)\n", kind, (NR % 2 ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2), NR, busy }'
done
rm -f "$results"
echo "lost: $lost"
[ "$lost" -eq 0 ]
