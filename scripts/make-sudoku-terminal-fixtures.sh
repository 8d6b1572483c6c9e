#!/usr/bin/env bash
# Regenerates fixtures/sudoku-terminal/: Debian's `sudoku` (curses) in xterm on a virtual desktop, opened on the
# board fixtures/sudoku-terminal/board.txt (written by `sudoku -g`; `-n`: no random board), in xterm's default font (the X server's
# `fixed`, 6x13) and in DejaVu Sans Mono 12; each at the start (the cursor on row 1, column 1) and after keys typed
# as a player would (the cursor moved with the arrow keys: 9 into row 2, column 2; 4 into row 2, column 5; then
# up onto the given 9 of row 1, column 5). Each shot NAME.png has its truth: NAME.truth (the givens, from the board
# file) and, once played, NAME.entered (the digits this script typed); tests/sudoku_terminal.rs reads them.
# Usage: scripts/make-sudoku-terminal-fixtures.sh   (needs Xvfb, openbox, xterm, xdotool and the sudoku package)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/xsession.sh
out=fixtures/sudoku-terminal
start_xsession "$(free_display 300)"
trap stop_xsession EXIT
givens=$(grep -v '^%' "$out/board.txt" | grep -v '^-' | tr -d ' |' | tr '.' '.')

# shoot NAME FONT_ARGS...: starts the game in xterm with those font arguments, shoots it at the start and played.
shoot() {
    local name=$1
    shift
    xterm "$@" -geometry 80x30 -e /usr/games/sudoku -n "$PWD/$out/board.txt" >/dev/null 2>&1 &
    local pid=$! id i
    for i in $(seq 100); do id=$(xdotool search --onlyvisible --name '^sudoku$' 2>/dev/null | head -1) && [ -n "$id" ] && break; sleep 0.1; done
    xdotool windowactivate --sync "$id"
    sleep 1
    "$AUTOPLAY" capture --window sudoku -o "$out/$name-start.png"
    printf '# %s\n%s\n' "Debian's sudoku in xterm ($name), at the start: the givens of board.txt" "$givens" >"$out/$name-start.truth"
    for key in Right Down 9 Right Right Right 4 Up; do xdotool key --window "$id" "$key"; sleep 0.2; done
    sleep 1
    "$AUTOPLAY" capture --window sudoku -o "$out/$name-played.png"
    printf '# %s\n%s\n' "Debian's sudoku in xterm ($name), played: the givens of board.txt" "$givens" >"$out/$name-played.truth"
    printf '# %s\n.........\n.9..4....\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n' \
        "The digits typed; the cursor is on row 1, column 5" >"$out/$name-played.entered"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

shoot xterm-fixed
shoot xterm-dejavu-mono -fa "DejaVu Sans Mono" -fs 12
ls "$out"
