#!/usr/bin/env bash
# Records one short live session per game and client into fixtures/sessions/<game>-<client>/ (session.json and
# frames/), by `autoplay play GAME --record DIR` on a virtual desktop; the tests replay them all without X.
# Needs a release build.
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

record() {
    local name=$1 game=$2
    rm -rf "${out:?}/$name"
    "$AUTOPLAY" play "$game" --record "$out/$name"
    stop_games
    echo "$out/$name: $(du -sh "$out/$name" | cut -f1)"
}

start_flood '8x8c5m0#session'
record flood-sgt-flood flood

start_solo '2x3#session'
record sudoku-sgt-solo sudoku

start_gnome_sudoku
record sudoku-gnome sudoku

# Deal 30, the last stretch of its best line (the bot plays the rest).
line=$("$AUTOPLAY" solve cribbage --deal 30 | awk '{print $NF}')
start_cribbage_table 30 "${line:0:52}"
record cribbage-table cribbage
