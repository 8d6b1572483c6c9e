#!/usr/bin/env bash
# Writes the fixtures of the second Cribbage table (fixtures/tables/cribbage-parlour.html) into
# fixtures/cribbage-parlour/: screenshots from headless Chromium at 1000x720 (the size the live tests open it at),
# two of them also at 1280x800 (NAME-1280x800), and, beside each, its truth as the page's own state text says it (NAME.truth: the columns, the stack, the
# score). The opening position of deal 30 also gets the calibration truth, with the point of the button that
# ends a stack (found in the picture by its gold colour).
# Needs a release build (for the solver's lines) and chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
out=fixtures/cribbage-parlour
mkdir -p "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
page="file://$PWD/fixtures/tables/cribbage-parlour.html"
flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-sync --user-data-dir="$profile")

shoot() { # shoot NAME DEAL STEPS [WxH]: the position after the first STEPS steps of the solver's line for DEAL
    local name=$1 deal=$2 steps=$3 size=${4:-1000x720} line
    line=$("$AUTOPLAY" solve cribbage --deal "$deal" | awk '{print $NF}')
    line=${line:0:$steps}
    chromium "${flags[@]}" --window-size="${size/x/,}" --screenshot="$out/$name.png" "$page?deal=$deal&line=$line" 2>/dev/null
    chromium "${flags[@]}" --dump-dom "$page?deal=$deal&line=$line" 2>/dev/null |
        sed -n '/<pre id="state">/,/<\/pre>/p' | sed 's/<pre id="state">//; s/<\/pre>//' |
        awk -v deal="$deal" -v line="$line" -v size="$size" '
            NR == 1 { print "# " "cribbage-parlour.html?deal=" deal "&line=" line " at " size " (headless Chromium): the page'"'"'s own state"; print }
            /^stack/ { out = ""; for (i = 1; i <= length($2); i++) out = out (i > 1 ? " " : "") substr($2, i, 1); print "stack: " out }
            /^score/ { print "score: " $2 }' > "$out/$name.truth"
    echo "$out/$name: $(head -2 "$out/$name.truth" | tail -1)"
}

shoot deal30-start 30 0
shoot deal30-mid 30 27
shoot deal969-early 969 9
shoot deal1031-late 1031 52
shoot deal30-mid-1280x800 30 27 1280x800
shoot deal1031-late-1280x800 1031 40 1280x800
shoot deal1-stack-ended 1 "$("$AUTOPLAY" solve cribbage --deal 1 | awk '{print $NF}' | grep -bo _ | sed -n 3p | cut -d: -f1 | awk '{print $1 + 1}')"

# The calibration truth of the opening: the position, the point of the gold button that ends a stack (its
# centre in the picture: the felt's left 265 + 406 + 17, its top 104 + 26 + 17, as the page lays them out at
# 1000x720), and points on the printed numbers (the 0 of "Stack Total: 0" and of "Score: 0", as they show).
{ cat "$out/deal30-start.truth"; echo "end stack: 688,147"; echo "total at: 163,346"; echo "score at: 121,378"; } > "$out/deal30-start.calibration"
