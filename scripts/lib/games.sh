# Shell helpers that start the live games on the virtual desktop (source after scripts/lib/xsession.sh and
# scripts/lib/env.sh); each waits until the game's window shows its board. Used by the demo and by
# scripts/fixtures/sessions.sh.

# start_flood PARAMS: sgt-flood with parameters and seed (e.g. 8x8c5m0#demo).
start_flood() {
    /usr/games/sgt-flood "$1" >/dev/null 2>&1 &
    wait_for_window Flood
}

# start_solo PARAMS: sgt-solo with parameters and seed (e.g. 2x3#demo).
start_solo() {
    /usr/games/sgt-solo "$1" >/dev/null 2>&1 &
    wait_for_window Solo
}

# start_gnome_sudoku: GNOME Sudoku with a fresh profile in $GAMES_PROFILE, an Easy puzzle chosen in its first window.
start_gnome_sudoku() {
    local home=$GAMES_PROFILE/gnome
    mkdir -p "$home"
    HOME=$home XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config GSETTINGS_BACKEND=memory \
        /usr/games/gnome-sudoku >/dev/null 2>&1 &
    wait_for_window "Select Difficulty"
    xdotool search --onlyvisible --name "^Select Difficulty\$" windowactivate --sync
    xdotool key Return
    wait_for_window Sudoku
    sleep 1
}

# start_chromium_app PAGE SIZE TITLE: the project's page fixtures/tables/PAGE (with its query) as a Chromium app
# window of SIZE ("W,H"), once a visible window's title matches TITLE (xdotool's regular expression).
start_chromium_app() {
    local page=$1 size=$2 title=$3
    mkdir -p "$GAMES_PROFILE/chromium"
    chromium --no-sandbox --test-type --disable-gpu --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --user-data-dir="$GAMES_PROFILE/chromium" --window-size="$size" \
        --window-position=60,40 --app="file://$PWD/fixtures/tables/$page" >/dev/null 2>&1 &
    local i
    for i in $(seq 150); do xdotool search --onlyvisible --name "$title" >/dev/null 2>&1 && break; sleep 0.1; done
    sleep 1.5
}

# start_cribbage_table DEAL [LINE]: the project's Cribbage Solitaire table in Chromium at numbered deal DEAL,
# after the moves LINE (solution-line notation) were played.
start_cribbage_table() {
    start_chromium_app "cribbage.html?deal=$1&line=${2:-}" 900,640 "^Cribbage Solitaire — deal $1"
}

# start_flood_styles QUERY: the project's Flood-It page of many button looks (fixtures/tables/flood-styles.html)
# in Chromium with QUERY.
start_flood_styles() {
    start_chromium_app "flood-styles.html?$1" 560,640 "^Flood-It \(styles\)"
}

# stop_games: ends every game started here.
stop_games() {
    pkill -f /usr/games/sgt- 2>/dev/null || true
    pkill -f /usr/games/gnome-sudoku 2>/dev/null || true
    pkill -f "$GAMES_PROFILE/chromium" 2>/dev/null || true
    sleep 0.5
}
