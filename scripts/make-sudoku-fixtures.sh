#!/usr/bin/env bash
# Regenerates fixtures/sudoku/: screenshots of real sgt-solo windows on a virtual display (:78), each next to
# its truth: NAME.id (the game ID sgt-solo --generate gives for NAME.params, i.e. the givens) and, where the
# "player" typed digits with xdotool, NAME.entered (board text of those digits, '.' elsewhere).
# Then re-learns calibration/sudoku/sgt-default.toml from the calibrate-* shots.
# Usage: CARGO_TARGET_DIR=... scripts/make-sudoku-fixtures.sh   (needs Xvfb, openbox, xdotool, sgt-puzzles and a
# release build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/xsession.sh
source scripts/env.sh
autoplay=$AUTOPLAY
out=fixtures/sudoku
solo=/usr/games/sgt-solo
start_xsession :78
trap stop_xsession EXIT

# probe: reads the window once (givens only, before any typing) for the grid's layout: LAYOUT="ox oy pitch".
probe() {
    "$autoplay" capture --window Solo -o /tmp/make-sudoku-probe.png
    LAYOUT=$("$autoplay" --calibration calibration read sudoku /tmp/make-sudoku-probe.png --json \
        | python3 -c "import json,sys; l=json.load(sys.stdin)['layout']; print(l['origin_x'], l['origin_y'], l['pitch'])")
}

# click_cell BUTTON ROW COL: 1 = left (select for a digit), 3 = right (select for a pencil mark).
click_cell() {
    local win xy
    win=$(xdotool search --onlyvisible --name '^Solo$' | head -1)
    read -r -a xy <<< "$(python3 -c "o=list(map(float,'$LAYOUT'.split())); print(int(o[0]+($3+0.5)*o[2]), int(o[1]+($2+0.5)*o[2]))")"
    xdotool mousemove --window "$win" "${xy[0]}" "${xy[1]}" click "$1"
    sleep 0.2
}

# type_digit BUTTON ROW COL KEY: clicks a cell and types a key.
type_digit() {
    click_cell "$1" "$2" "$3"
    xdotool key "$4"
    sleep 0.2
}

# shoot NAME PARAMS SEED MODE TILESIZE [ACTIONS-FUNCTION]: MODE is "window" or "screen@X,Y".
shoot() {
    local name=$1 params=$2 seed=$3 mode=$4 tile=$5 actions=${6:-}
    "$solo" --generate 1 "$params#$seed" > "$out/$name.id"
    echo "$params#$seed tile $tile" > "$out/$name.params"
    SOLO_TILESIZE=$tile "$solo" "$params#$seed" >/dev/null 2>&1 &
    local pid=$!
    wait_for_window Solo
    if [ -n "$actions" ]; then probe; "$actions" "$out/$name.entered"; fi
    xdotool mousemove 0 0
    sleep 0.5
    capture_window Solo "$mode" "$out/$name.png"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    echo "$name: $(cat "$out/$name.id")"
}

# The player's moves, chosen by looking at each game's givens (python3 decoding of the ID); each action
# function writes the truth of the digits it enters.
# 3x3#played: four digits, and a 3 in the last row, which already has a given 3: a clash (red).
played_with_clash() {
    type_digit 1 0 0 2; type_digit 1 0 1 6; type_digit 1 2 0 7; type_digit 1 4 4 4; type_digit 1 8 8 3
    printf '26.......\n.........\n7........\n.........\n....4....\n.........\n.........\n.........\n........3\n' > "$1"
}
# 3x3#pencil: pencil marks (right-click, then a digit; one mark per click) in three empty cells, and one digit.
pencil_marks() {
    type_digit 3 1 0 1; type_digit 3 1 0 2; type_digit 3 1 0 8; type_digit 3 4 4 5; type_digit 3 8 7 4; type_digit 3 8 7 5
    type_digit 1 0 1 1
    printf '.1.......\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n' > "$1"
}
# 3x3#selected: the given at (0, 0) left selected (grey).
selected_given() { click_cell 1 0 0; }
# 2x3#mixed: a digit, pencil marks, and an empty cell left selected.
mixed() {
    type_digit 1 0 1 3; type_digit 3 5 0 2; type_digit 3 5 0 4
    printf '.3....\n......\n......\n......\n......\n......\n' > "$1"
    click_cell 1 1 0
}

rm -f "$out"/*.png "$out"/*.id "$out"/*.params "$out"/*.entered
# Calibration shots first (givens only): every symbol 1-G at two tile sizes, 1-9 at a large one.
shoot calibrate-4x4-tile48 4x4 calibrate window 48
shoot calibrate-4x4-tile28 4x4 calibrate-small window 28
shoot calibrate-3x3-tile64 3x3 calibrate-large window 64
# Small tiles draw each size's digits differently (font hinting): learn each small size.
for t in 14 16 18 20; do shoot calibrate-4x4-tile$t 4x4 calibrate-$t window $t; done
learn() { # NAME: adds what NAME.png teaches to the theme
    local entered=()
    [ -f "$out/$1.entered" ] && entered=(--entered "$out/$1.entered")
    "$autoplay" --calibration calibration calibrate sudoku "$out/$1.png" --truth "$(cat "$out/$1.id")" --theme sgt-default "${entered[@]}"
}
rm -f calibration/sudoku/sgt-default.toml
learn calibrate-4x4-tile48
learn calibrate-4x4-tile28
learn calibrate-3x3-tile64
for t in 14 16 18 20; do learn calibrate-4x4-tile$t; done
# A played game teaches the colours of the player's digits, clashes and pencil marks.
shoot calibrate-3x3-played 3x3 played window 48 played_with_clash
shoot calibrate-2x3-pencil 2x3 mixed window 48 mixed
learn calibrate-3x3-played
learn calibrate-2x3-pencil
shoot 2x2-tile48 2x2 two window 48
shoot 2x3-tile48 2x3 six window 48
shoot 3x3-tile48 3x3 nine window 48
shoot 3x3-tile32 3x3 nine-small window 32
shoot 3x3-tile15 3x3 nine-tiny window 15
shoot 4x4-tile17 4x4 sixteen-tiny window 17
shoot 3x4-tile22 3x4 twelve-small window 22
shoot 3x3-tile64 3x3 nine-large window 64
shoot 3x4-tile40 3x4 twelve window 40
shoot 4x4-tile36 4x4 sixteen window 36
shoot 4x4-tile56 4x4 sixteen-large window 56
shoot 3x3-tile40-screen 3x3 screen screen@411,237 40
shoot 3x3-tile40-played-clash 3x3 played window 40 played_with_clash
shoot 3x3-tile36-pencil 3x3 pencil window 36 pencil_marks
shoot 3x3-tile48-selected 3x3 selected window 48 selected_given
shoot 2x3-tile40-mixed 2x3 mixed window 40 mixed
