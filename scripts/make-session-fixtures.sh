#!/usr/bin/env bash
# Records one short live session per game and client into fixtures/sessions/<game>-<client>/ (session.json and
# frames/), by `autoplay play GAME --record DIR` on a virtual desktop; the tests replay them all without X.
# With names (e.g. sudoku-sgt-solo sudoku-gnome), records only those. Needs a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/xsession.sh
source scripts/games.sh
out=fixtures/sessions
mkdir -p "$out"
GAMES_PROFILE=$(mktemp -d)
start_xsession "$(free_display 300)"
trap 'stop_games; stop_xsession; rm -rf "$GAMES_PROFILE"' EXIT

wanted() { [ ${#WANTED[@]} -eq 0 ] || [[ " ${WANTED[*]} " == *" $1 "* ]]; }
WANTED=("$@")

record() {
    local name=$1 game=$2
    rm -rf "${out:?}/$name"
    "$AUTOPLAY" play "$game" --record "$out/$name"
    stop_games
    echo "$out/$name: $(du -sh "$out/$name" | cut -f1)"
}

if wanted flood-sgt-flood; then
    start_flood '8x8c5m0#session'
    record flood-sgt-flood flood
fi
if wanted flood-web-tiles; then
    # Cells that take no click: the buttons are found, and each proved by its first click.
    start_flood_styles 'style=tiles&seed=15&size=6&colours=4'
    record flood-web-tiles flood
fi
if wanted sudoku-sgt-solo; then
    start_solo '2x3#session'
    record sudoku-sgt-solo sudoku
fi
if wanted sudoku-gnome; then
    start_gnome_sudoku
    record sudoku-gnome sudoku
fi

if wanted cribbage-table; then
    # Deal 30, the last stretch of its best line (the bot plays the rest).
    line=$("$AUTOPLAY" solve cribbage --deal 30 | awk '{print $NF}')
    start_cribbage_table 30 "${line:0:52}"
    record cribbage-table cribbage
fi
