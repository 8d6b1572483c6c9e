#!/usr/bin/env bash
# Regenerates fixtures/flood-buttons/: screenshots of the project's own Flood-It page in each of its button styles
# (fixtures/tables/flood-styles.html, rendered by headless Chromium at 560×640), each next to its truth: the board
# (NAME.board.txt) and every button's colour and centre in the picture (NAME.buttons.txt, "R 118 467" per line),
# both as the page writes them into its hidden <pre> elements.
# Usage: scripts/make-flood-button-fixtures.sh   (needs chromium)
set -euo pipefail
cd "$(dirname "$0")/.."
out=fixtures/flood-buttons
page="file://$PWD/fixtures/tables/flood-styles.html"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=560,640 --force-device-scale-factor=1)
rm -f "$out"/*.png "$out"/*.txt

# pre ID DOM: the text of the page's <pre id=ID>.
pre() {
    python3 -c 'import html, re, sys; m = re.search(r"<pre id=\"" + sys.argv[1] + r"\"[^>]*>(.*?)</pre>", sys.stdin.read(), re.S); sys.stdout.write(html.unescape(m.group(1)))' "$1"
}

# shoot NAME QUERY
shoot() {
    local name=$1 query=$2 profile
    profile=$(mktemp -d)
    chromium "${flags[@]}" --user-data-dir="$profile" --screenshot="$out/$name.png" "$page?$query" 2>/dev/null
    local dom
    dom=$(chromium "${flags[@]}" --user-data-dir="$profile" --dump-dom "$page?$query" 2>/dev/null)
    pre board <<<"$dom" >"$out/$name.board.txt"
    pre button-centres <<<"$dom" >"$out/$name.buttons.txt"
    rm -rf "$profile"
    echo "$name: $(wc -l <"$out/$name.buttons.txt") buttons"
}

shoot discs-seed3 "style=discs&seed=3"
shoot ellipse-seed3 "style=ellipse&seed=3"
shoot ellipse-seed7-8colours "style=ellipse&seed=7&colours=8&size=14"
shoot tiles-seed3 "style=tiles&seed=3"
shoot flat-seed3 "style=flat&seed=3"
shoot flat-seed9-scale07 "style=flat&seed=9&scale=0.7"
shoot gradient-seed3 "style=gradient&seed=3"
shoot gradient-seed5-scale13 "style=gradient&seed=5&scale=1.3&size=10"
