#!/usr/bin/env bash
# The reader's time on a screenshot of each test client written from a description alone (issue 46: Swing, pygame,
# canvas pages, terminals, Tk), with one or more builds of autoplay side by side: each client is started on a
# virtual display of its own, its window captured once it is mapped (and, for a board that never holds still, as it
# is), and every binary given times `bench GAME --shot` on the same picture (mean over its reads), or says why it
# did not read it ("not read"), or marks a board it read otherwise than the last binary does ("misread").
#
#   scripts/bench/unseen-clients.sh [BINARY...]     (default: this tree's release build)
#   PLAY=1 scripts/bench/unseen-clients.sh [BINARY...]
#
# With PLAY=1, the last binary also plays each client's game to its end after the capture (`play GAME --window
# TITLE --json`, no calibration), and a second table gives each game's result, moves (and the first plan's length
# and whether it was proven optimal) and time from the report.
#
# e.g. with the tree before issue 46 built elsewhere:
#   git worktree add /tmp/before 8feaf9a && (cd /tmp/before && CARGO_TARGET_DIR=/tmp/before-target cargo build --release)
#   scripts/bench/unseen-clients.sh /tmp/before-target/release/autoplay "$CARGO_TARGET_DIR/release/autoplay"
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
source "$here/scripts/lib/env.sh"
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=("$AUTOPLAY")
tables="$here/fixtures/tables"
shots=$(mktemp -d)
classes=$(mktemp -d)
display=":$((200 + RANDOM % 200))"
Xvfb "$display" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$shots" "$classes"' EXIT
export DISPLAY=$display
for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
openbox >/dev/null 2>&1 &
javac -d "$classes" "$tables/FloodSwing.java" "$tables/SudokuSwing.java"
profile=$(mktemp -d)
chromium_app() { # PAGE SIZE
    chromium --no-sandbox --test-type --disable-gpu --no-first-run --disable-background-networking \
        --disable-component-update --user-data-dir="$profile" --window-size="$2" --app="$1" >/dev/null 2>&1 &
}

# NAME GAME TITLE COMMAND...: starts the client, captures its window once it is listed, and ends it.
shoot() {
    local name=$1 game=$2 title=$3
    shift 3
    "$@" >/dev/null 2>&1 &
    local pid=$!
    for _ in $(seq 200); do
        "${binaries[-1]}" windows 2>/dev/null | grep -qF "$title" && break
        sleep 0.1
    done
    sleep 2 # its first paint, and a page's fonts
    "${binaries[-1]}" capture --window "$title" -o "$shots/$name.png" >/dev/null 2>&1 || echo "$name: not captured" >&2
    echo "$game" >"$shots/$name.game"
    if [ "${PLAY:-0}" = 1 ]; then
        local report field
        report=$("${binaries[-1]}" play "$game" --window "$title" --json 2>"$shots/$name.play.log") || true
        field() { echo "$report" | grep -o "\"$1\":[a-z0-9]*" | head -1 | cut -d: -f2; }
        printf '%-24s %5s %6s %8s %8s %9s\n' "$name" "$(field won)" "$(field moves)" "$(field planned_moves)" \
            "$(field plan_optimal)" "$(field millis)" >>"$shots/played"
        [ "$(field won)" = true ] || echo "$name: not won: $(tail -c 300 "$shots/$name.play.log")" >&2
    fi
    kill "$pid" 2>/dev/null || true
    pkill -f "$profile" 2>/dev/null || true
    sleep 0.5
}

py=/usr/bin/python3
xterm_dejavu=(xterm -fa "DejaVu Sans Mono" -fs 14)
shoot flood-swing flood "Flood (Swing)" java -cp "$classes" FloodSwing --size 10 --colours 5 --seed 7
shoot flood-pygame flood "Flood (pygame)" env SDL_VIDEODRIVER=x11 $py "$tables/flood_pygame.py" --size 10 --colours 5 \
    --seed 7 --state "$shots/flood-pygame.json"
shoot flood-canvas flood "Flood (canvas)" chromium_app "file://$tables/flood-canvas.html?seed=3&n=12&c=6" 800,700
shoot flood-terminal flood "Flood (terminal)" xterm -T "Flood (terminal)" -geometry 60x20 -e $py \
    "$tables/flood_curses.py" --size 10 --colours 5 --seed 7
shoot flood-keys flood "Flood (keys)" $py "$tables/flood_tk_keys.py" --seed 3
shoot flood-sparks flood "Flood (sparks)" $py "$tables/flood_tk_sparks.py" --seed 3
shoot sudoku-swing sudoku "Sudoku (Swing)" java -cp "$classes" SudokuSwing --seed 7
shoot sudoku-pygame sudoku "Sudoku (pygame)" env SDL_VIDEODRIVER=x11 $py "$tables/sudoku_pygame.py" --seed 3
shoot sudoku-canvas-dark sudoku "Sudoku (canvas)" chromium_app "file://$tables/sudoku-canvas-dark.html?seed=3" 760,700
shoot sudoku-segments sudoku "Sudoku (segments)" $py "$tables/sudoku_tk_segments.py" --puzzle 1
shoot sudoku-shimmer sudoku "Sudoku (shimmer)" $py "$tables/sudoku_tk_shimmer.py" --puzzle 1
shoot sudoku-terminal-cursor sudoku "Sudoku (cursor)" "${xterm_dejavu[@]}" -geometry 70x24 \
    -xrm "XTerm*cursorUnderLine: true" -xrm "XTerm*cursorBlink: true" -e $py "$tables/sudoku_curses_cursor.py"
shoot cribbage-strips cribbage "Cribbage" chromium_app "file://$tables/cribbage-strips.html?deal=30" 900,800

printf '%-24s' client
for binary in "${binaries[@]}"; do printf ' %28s' "${binary: -28}"; done
echo
for shot in "$shots"/*.png; do
    name=$(basename "$shot" .png)
    game=$(cat "$shots/$name.game")
    printf '%-24s' "$name"
    for binary in "${binaries[@]}"; do
        if out=$("$binary" bench "$game" --shot "$shot" 2>&1 | grep -o 'mean [0-9.]* ms'); then
            # A board read unlike the last binary's reading is marked: read, but not as the newest build reads it.
            if [ "$("$binary" read "$game" "$shot" 2>/dev/null)" != "$("${binaries[-1]}" read "$game" "$shot" 2>/dev/null)" ]; then
                out="$out (misread)"
            fi
            printf ' %28s' "$out"
        else
            why=$("$binary" read "$game" "$shot" 2>&1 >/dev/null | head -c 200 | tr '\n' ' ') || true
            printf ' %28s' "not read"
            echo >&2 "$name ($binary): ${why}"
        fi
    done
    echo
done
if [ -f "$shots/played" ]; then
    echo
    printf '%-24s %5s %6s %8s %8s %9s\n' client won moves planned optimal "ms"
    cat "$shots/played"
fi
