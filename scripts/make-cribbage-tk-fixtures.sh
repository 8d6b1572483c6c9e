#!/usr/bin/env bash
# Captures the Tk Cribbage Solitaire table (fixtures/tables/cribbage_tk.py, real KDE card art, fanned rows) on a
# virtual display at two window sizes, into fixtures/cribbage-tk/NAME.png with NAME.truth: the columns, score and
# stack that the table itself wrote to its state file (a line cut where a stack must end shows the stack after
# the table's own clear, and so does its truth). Lines are the first N steps (characters) of the solver's best
# line, so it needs a release build of autoplay; the table needs python3-tk, kdegames-card-data-kf5 and
# librsvg2-bin (scripts/setup-debian.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/xsession.sh
out=fixtures/cribbage-tk
mkdir -p "$out"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
XSESSION_SCREEN=1400x1000x24 start_xsession "$(free_display 330)"
work=$(mktemp -d)
table=
cleanup() {
    if [ -n "$table" ]; then kill "$table" 2>/dev/null || true; wait "$table" 2>/dev/null || true; fi
    stop_xsession
    rm -rf "$work"
}
trap cleanup EXIT

# capture ID FILE: the window's own picture (ImageMagick's import, else xwd).
capture() {
    if command -v import >/dev/null 2>&1; then
        import -window "$1" "png:$2"
    else
        xwd -silent -id "$1" | convert xwd:- "png:$2"
    fi
}

# name deal steps
shots=(
    "deal30-start 30 0"
    "deal30-mid 30 27"
    "deal969-early 969 9"
    "deal1031-late 1031 52"
)
sizes=(1100x760 820x600)
for size in "${sizes[@]}"; do
    for shot in "${shots[@]}"; do
        read -r name deal steps <<<"$shot"
        line=$("$AUTOPLAY" solve cribbage --deal "$deal" | awk '{print $NF}')
        line=${line:0:$steps}
        state=$work/state.txt
        rm -f "$state"
        "$python" fixtures/tables/cribbage_tk.py --deal "$deal" --line "$line" --size "$size" --state-file "$state" &
        table=$!
        for _ in $(seq 300); do [ -s "$state" ] && break; sleep 0.05; done
        [ -s "$state" ] || { echo "$name: the table wrote no state file" >&2; exit 1; }
        id=$(timeout 20 xdotool search --sync --onlyvisible --name 'Cribbage Solitaire \(Tk\)' | head -n 1)
        [ -n "$id" ] || { echo "$name: no window" >&2; exit 1; }
        # Let it paint: two captures a short interval apart must agree, and the state must not change meanwhile
        # (a line cut where a stack must end would otherwise be caught in the table's 600 ms pause).
        file=$out/$name-$size.png
        settled=
        capture "$id" "$work/a.png"
        before=$(cat "$state")
        for _ in $(seq 40); do
            sleep 0.25
            capture "$id" "$work/b.png"
            after=$(cat "$state")
            if cmp -s "$work/a.png" "$work/b.png" && [ "$before" = "$after" ]; then
                settled=1
                break
            fi
            mv "$work/b.png" "$work/a.png"
            before=$after
        done
        [ -n "$settled" ] || { echo "$name: the window did not settle" >&2; exit 1; }
        mv "$work/b.png" "$file"
        {
            echo "# cribbage_tk.py --deal $deal${line:+ --line $line} at $size (Xvfb, openbox): the table's own state"
            sed -n 1p "$state"
            grep '^score:' "$state"
            grep '^stack:' "$state"
        } >"$out/$name-$size.truth"
        kill "$table" 2>/dev/null || true
        wait "$table" 2>/dev/null || true
        table=
        echo "$file: $(identify -format '%wx%h' "$file" 2>/dev/null || true) $(sed -n 2p "$out/$name-$size.truth") $(grep '^score:' "$state")"
    done
done
