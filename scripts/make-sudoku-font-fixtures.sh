#!/usr/bin/env bash
# Regenerates fixtures/sudoku-fonts/: screenshots of the project's static Sudoku board page drawn in fonts the
# reader was never taught (fixtures/tables/sudoku-fonts.html, rendered by headless Chromium at 640×680), one seed
# per font, each next to its truth NAME.txt: the page's hidden <pre id="board"> (9 lines with every digit shown,
# "." empty, a blank line, then 9 lines with only the givens). The first six empty cells hold the player's digits.
# The monospace face is FreeMono: this machine has no "Noto Sans Mono" (the page also knows font=noto-sans-mono).
# Usage: scripts/make-sudoku-font-fixtures.sh   (needs chromium, python3, and fonts-liberation2, fonts-freefont-ttf,
# fonts-noto-core, fonts-urw-base35)
set -euo pipefail
cd "$(dirname "$0")/.."
out=fixtures/sudoku-fonts
page="file://$PWD/fixtures/tables/sudoku-fonts.html"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 --window-size=640,680
    --virtual-time-budget=2000)
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.txt

# pre ID: the text of the page's <pre id=ID> in the DOM on stdin, HTML-unescaped.
pre() {
    python3 -c 'import html, re, sys; m = re.search(r"<pre id=\"" + sys.argv[1] + r"\"[^>]*>(.*?)</pre>", sys.stdin.read(), re.S); sys.stdout.write(html.unescape(m.group(1)))' "$1"
}

# shoot FONT SEED: writes $out/FONT-seedSEED.png and .txt; fails if the page says its font is missing.
shoot() {
    local name="$1-seed$2" query="font=$1&seed=$2" profile dom
    profile=$(mktemp -d)
    chromium "${flags[@]}" --user-data-dir="$profile" --screenshot="$out/$name.png" "$page?$query" 2>/dev/null
    dom=$(chromium "${flags[@]}" --user-data-dir="$profile" --dump-dom "$page?$query" 2>/dev/null)
    rm -rf "$profile"
    pre board <<<"$dom" >"$out/$name.txt"
    # 9 board lines, a blank line, 9 givens lines; anything else (e.g. "FONT MISSING: ...") is a failure.
    if ! python3 -c 'import re, sys; sys.exit(not re.fullmatch(r"([1-9.]{9}\n){9}\n([1-9.]{9}\n){9}", open(sys.argv[1]).read()))' "$out/$name.txt"; then
        echo "$name: $(head -1 "$out/$name.txt")" >&2
        exit 1
    fi
    echo "$name: $(head -9 "$out/$name.txt" | tr -cd '1-9' | wc -c) digits, $(tail -9 "$out/$name.txt" | tr -cd '1-9' | wc -c) givens"
}

shoot liberation-sans-bold 1
shoot liberation-serif-italic 2
shoot free-mono 3
shoot free-serif 4
shoot nimbus-narrow 5
shoot noto-serif-bold-italic 6
shoot pixel 7
