#!/usr/bin/env bash
# Regenerates fixtures/flood/: screenshots of real sgt-flood windows on a virtual display, each next to its
# truth, the game ID that sgt-flood --generate gives for the same parameters and seed (NAME.png, NAME.id, and
# the parameters and seed in NAME.params; 'mK' there means the game's move limit is its own solver's count + K).
# Also re-learns calibration/flood/sgt-default.toml and the recoloured example theme from their shots.
# Usage: scripts/make-flood-fixtures.sh   (needs Xvfb, openbox, xdotool, sgt-puzzles and a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/xsession.sh
source scripts/env.sh
autoplay=$AUTOPLAY
out=fixtures/flood
flood=/usr/games/sgt-flood
start_xsession :77
trap stop_xsession EXIT

# The recoloured example theme. FLOOD_COLOUR_i recolours entry i of sgt-flood's palette array: 0 is the window
# background, 1 the outlines, 2 onwards the cell colours 0, 1, …; so this recolours the background, the
# outlines and cell colours 0-3.
recolour=(FLOOD_COLOUR_0=8b1a1a FLOOD_COLOUR_1=e6c229 FLOOD_COLOUR_2=2e8b57 FLOOD_COLOUR_3=1f2a80 FLOOD_COLOUR_4=d2691e FLOOD_COLOUR_5=708090)

# shoot NAME PARAMS SEED MODE [VAR=VALUE...]: MODE is "window", or "screen@X,Y" to move the window to X,Y and
# capture the whole screen.
shoot() {
    local name=$1 params=$2 seed=$3 mode=$4
    shift 4
    "$flood" --generate 1 "$params#$seed" > "$out/$name.id"
    echo "$params#$seed" > "$out/$name.params"
    env "$@" "$flood" "$params#$seed" >/dev/null 2>&1 &
    local pid=$!
    wait_for_window Flood
    capture_window Flood "$mode" "$out/$name.png"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    echo "$name: $(cat "$out/$name.id")"
}

rm -f "$out"/*.png "$out"/*.id "$out"/*.params
shoot calibrate-sgt-default 6x6c10m0 calibration window
shoot 2x2c3-tile32 2x2c3m0 two window
shoot 5x5c3-tile32 5x5c3m0 five window
shoot 12x12c6-tile32 12x12c6m5 twelve window
shoot 12x12c6-tile20 12x12c6m5 bench window FLOOD_TILESIZE=20
shoot 8x13c4-tile24 8x13c4m2 tall window FLOOD_TILESIZE=24
shoot 30x30c6-tile12 30x30c6m5 largest window FLOOD_TILESIZE=12
shoot 6x6c10-tile32 6x6c10m0 ten window
shoot 14x14c8-tile16 14x14c8m0 eight window FLOOD_TILESIZE=16
shoot 20x20c5-tile14 20x20c5m0 twenty window FLOOD_TILESIZE=14
shoot 16x16c6-tile40-screen 16x16c6m5 screen screen@37,180 FLOOD_TILESIZE=40
shoot 9x9c7-tile64 9x9c7m0 big window FLOOD_TILESIZE=64
shoot calibrate-recoloured 8x8c6m0 recolour-calibration window "${recolour[@]}"
shoot 10x10c6-recoloured 10x10c6m0 recolour window "${recolour[@]}"

"$autoplay" --calibration calibration calibrate flood "$out/calibrate-sgt-default.png" \
    --truth "$(cat "$out/calibrate-sgt-default.id")" --theme sgt-default --symbols RYGBOPNCLK
"$autoplay" --calibration calibration calibrate flood "$out/calibrate-recoloured.png" \
    --truth "$(cat "$out/calibrate-recoloured.id")" --theme recoloured-example
