#!/usr/bin/env bash
# The demo: installs what is needed, starts a virtual display with a real sgt-flood window, lets the bot play it
# to the end, and saves screenshots from before and after in demo-output/.
# Options (environment): DEMO_PARAMS (sgt-flood parameters and seed, default 14x14c6m0#demo), DEMO_DELAY_MS.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
source scripts/env.sh
source scripts/xsession.sh
cargo build --release --locked

params=${DEMO_PARAMS:-14x14c6m0#demo}
out=demo-output
mkdir -p "$out"
start_xsession "$(free_display 50)"
trap stop_xsession EXIT

echo "game: sgt-flood '$params' = $(/usr/games/sgt-flood --generate 1 "$params")"
/usr/games/sgt-flood "$params" >/dev/null 2>&1 &
wait_for_window Flood
"$AUTOPLAY" capture --window Flood -o "$out/before.png"
"$AUTOPLAY" capture --window Flood | "$AUTOPLAY" read flood - | tee "$out/board.txt"
"$AUTOPLAY" solve flood --json "$out/board.txt"
"$AUTOPLAY" play flood --move-delay-ms "${DEMO_DELAY_MS:-100}"
sleep 1
"$AUTOPLAY" capture --window Flood -o "$out/after.png"
"$AUTOPLAY" capture --screen -o "$out/screen-after.png"
echo "saved $out/before.png, $out/after.png and $out/screen-after.png"
