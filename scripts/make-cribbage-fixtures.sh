#!/usr/bin/env bash
# Captures the Cribbage Solitaire table (fixtures/tables/cribbage.html in Chromium on a virtual display) at
# numbered deals and part-played lines, at two window sizes, into fixtures/cribbage/NAME.png with NAME.params
# ("deal N", "line L": the truth is deal N after line L, replayed by the tests with the rules engine), then
# re-learns calibration/cribbage/table.toml from the first shot. Needs a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/xsession.sh
out=fixtures/cribbage
mkdir -p "$out"
start_xsession "$(free_display 250)"
profile=$(mktemp -d)
trap 'stop_xsession; rm -rf "$profile"' EXIT

# name deal moves size [screen]: the first MOVES steps of the deal's best line; "screen" captures the whole
# screen with the window off-centre instead of the window.
shots=(
    "deal30-start 30 0 1000,700"
    "deal30-mid 30 31 1000,700"
    "deal969-mid 969 44 1000,700"
    "deal1-late 1 58 1000,700"
    "deal1031-start 1031 0 760,560"
    "deal1879-mid 1879 23 760,560"
    "deal30-late 30 66 760,560"
    "deal969-early 969 20 900,640"
    "deal969-early-screen 969 20 900,640 screen"
)
for shot in "${shots[@]}"; do
    read -r name deal moves size mode <<<"$shot"
    line=$("$AUTOPLAY" solve cribbage --deal "$deal" | awk '{print $NF}')
    line=${line:0:$moves}
    rm -rf "$profile"/*
    chromium --no-sandbox --test-type --disable-gpu --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --user-data-dir="$profile" --window-size="$size" --window-position="$([ "${mode:-}" = screen ] && echo 250,200 || echo 40,30)" \
        --app="file://$PWD/fixtures/tables/cribbage.html?deal=$deal&line=$line" >/dev/null 2>&1 &
    browser=$!
    for i in $(seq 100); do xdotool search --onlyvisible --name "^Cribbage Solitaire — deal $deal" >/dev/null 2>&1 && break; sleep 0.1; done
    sleep 1.5
    if [ "${mode:-}" = screen ]; then
        "$AUTOPLAY" capture --screen -o "$out/$name.png"
    else
        "$AUTOPLAY" capture --window "Cribbage Solitaire" -o "$out/$name.png"
    fi
    printf 'deal %s\nline %s\nwindow %s%s\n' "$deal" "$line" "${size/,/x}" "$([ "${mode:-}" = screen ] && echo ' (whole screen)')" > "$out/$name.params"
    kill "$browser"; wait "$browser" 2>/dev/null || true
    echo "$out/$name.png: deal $deal after '$line'"
done
# The table's title at the start of deal 30 (the page writes it: the calibration learns that it shows the score).
"$AUTOPLAY" calibrate cribbage "$out/deal30-start.png" --deal 30 --theme table --title "Cribbage Solitaire — deal 30 — score 0"
