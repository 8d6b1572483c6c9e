#!/usr/bin/env bash
# The demo: installs what is needed, starts a virtual display, and lets the bot play three real games to the end
# — Flood-It (sgt-flood), Sudoku (sgt-solo) and Cribbage Solitaire (the project's table in Chromium) — saving
# before and after pictures of each in demo-output/ and each game's recording in demo-output/<game>-session/.
# Options (environment): DEMO_FLOOD (sgt-flood parameters and seed, default 14x14c6m0#demo), DEMO_SUDOKU
# (sgt-solo's, default 3x3#demo), DEMO_DEAL (Cribbage deal number, default 30), DEMO_DELAY_MS.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
source scripts/lib/env.sh
source scripts/lib/xsession.sh
source scripts/lib/games.sh
cargo build --release --locked

out=demo-output
mkdir -p "$out"
GAMES_PROFILE=$(mktemp -d)
start_xsession "$(free_display 50)"
trap 'stop_games; stop_xsession; rm -rf "$GAMES_PROFILE"' EXIT
delay=${DEMO_DELAY_MS:-100}

# play NAME GAME TITLE: pictures of the window before and after `autoplay play GAME`, and its recording.
play() {
    local name=$1 game=$2 title=$3
    "$AUTOPLAY" capture --window "$title" -o "$out/$name-before.png"
    rm -rf "${out:?}/$name-session"
    "$AUTOPLAY" play "$game" --move-delay-ms "$delay" --record "$out/$name-session"
    sleep 1
    "$AUTOPLAY" capture --window "$title" -o "$out/$name-after.png"
    stop_games
}

flood=${DEMO_FLOOD:-14x14c6m0#demo}
echo "Flood-It: sgt-flood '$flood' = $(/usr/games/sgt-flood --generate 1 "$flood")"
start_flood "$flood"
"$AUTOPLAY" capture --window Flood | "$AUTOPLAY" read flood - | tee "$out/flood-board.txt"
"$AUTOPLAY" solve flood --json "$out/flood-board.txt"
play flood flood Flood

sudoku=${DEMO_SUDOKU:-3x3#demo}
echo "Sudoku: sgt-solo '$sudoku' = $(/usr/games/sgt-solo --generate 1 "$sudoku")"
start_solo "$sudoku"
play sudoku sudoku Solo

deal=${DEMO_DEAL:-30}
echo "Cribbage Solitaire: deal $deal = $("$AUTOPLAY" deal cribbage "$deal")"
start_cribbage_table "$deal"
play cribbage cribbage "Cribbage Solitaire"

echo "saved in $out/: flood, sudoku and cribbage -before.png and -after.png, and each game's -session/ recording"
