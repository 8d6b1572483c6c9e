#!/usr/bin/env bash
# Time to first capture: how long `autoplay play GAME --window TITLE` runs before the loop's first capture of the
# game's window (the report's first_capture_millis: the process's clock), for Sudoku (sgt-solo), Flood-It
# (sgt-flood) and Cribbage (the project's table in Chromium), RUNS times each, idle and beside BUSY busy processes
# (scripts/busy.sh). Dry runs: nothing is clicked.
# Usage: bash scripts/bench/first-capture.sh [RUNS] [BUSY]   (default 5 runs, busy 6; needs `cargo build --release`)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/env.sh
source scripts/lib/xsession.sh
runs=${1:-5}
busy=${2:-6}
start_xsession "$(free_display 250)"
profile=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; sleep 0.5; rm -rf "$profile" 2>/dev/null || true; stop_xsession' EXIT
/usr/games/sgt-solo "3x3dt#first-capture" >/dev/null 2>&1 & pids+=($!)
/usr/games/sgt-flood "14x14c6m0#first-capture" >/dev/null 2>&1 & pids+=($!)
chromium --no-sandbox --test-type --disable-gpu --no-first-run --user-data-dir="$profile" --window-size=1000,700 \
    --app="file://$PWD/fixtures/tables/cribbage.html?deal=30" >/dev/null 2>&1 & pids+=($!)
wait_for_window Solo
wait_for_window Flood
for _ in $(seq 100); do "$AUTOPLAY" windows | grep -q "Cribbage Solitaire" && break; sleep 0.2; done
measure() { # LABEL
    for game in "sudoku Solo" "flood Flood" "cribbage Cribbage"; do
        set -- $game
        printf '%-6s %-9s' "$label" "$1"
        for _ in $(seq "$runs"); do
            ms=$("$AUTOPLAY" play "$1" --window "$2" --dry-run --json 2>/dev/null | grep -o '"first_capture_millis":[0-9]*' | cut -d: -f2)
            printf ' %6s' "${ms:--}"
        done
        echo " ms"
    done
}
label=idle measure
bash scripts/busy.sh "$busy" & load=$!
pids+=($load)
sleep 3
label="busy$busy" measure
