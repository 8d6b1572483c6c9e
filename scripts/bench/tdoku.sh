#!/usr/bin/env bash
# autoplay's 9×9 solver side by side with tdoku (t-dillon/tdoku, BSD-2; its fastest solver, `tdoku`) on the same
# puzzle files, one thread each: puzzles/s and µs/puzzle for solving with the uniqueness check (count to 2), the
# best of three runs each (the two alternate, so both see the same load), and the ratio autoplay / tdoku.
#
# Usage: bash scripts/bench/tdoku.sh TDOKU_DIR [FILE...]
#   TDOKU_DIR  a checkout of tdoku that you provide (nothing of it is copied into this repository). It is built
#              out of its tree into $TDOKU_BUILD (default ~/.cache/autoplay/tdoku-build) with cmake, as its README
#              builds it (-O3 -march=native), with clang (the compiler its benchmark tables name best on every
#              set; setup installs it; $TDOKU_CC/$TDOKU_CXX choose another); its cmake step writes
#              src/build_info.h into the checkout, as its own build does.
#   FILE...    puzzle files, one puzzle a line (default: the four sets below from TDOKU_DIR/data, or from its
#              data.zip, unzipped into $TDOKU_BUILD/data). `python3 scripts/bench/permute-sudoku.py SEED < F`
#              writes a randomly permuted copy of a set (each puzzle relabelled, its bands, rows, stacks and
#              columns shuffled, transposed half the time), to time both on the same puzzles seen another way.
# Environment: SECONDS_PER_RUN (default 3) is each run's length.
#
# What each side times: autoplay's `bench sudoku FILE` parses the file first and times only the solve loop (the
# first solution written out, counting stopped at 2), in file order, wall time. tdoku's `run_benchmark` is run
# with `-s tdoku -r0 -n N` (the file's N puzzles exactly as given, not permuted or resampled; no `-f`, so each
# solve counts to 2 as well); its timed loop includes turning the 81-character text into its state, and its
# warm-up (`-w 1`) is not timed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/env.sh
if [ $# -lt 1 ] || [ ! -f "$1/CMakeLists.txt" ]; then
    echo "usage: bash scripts/bench/tdoku.sh TDOKU_DIR [FILE...]   (TDOKU_DIR: a checkout of t-dillon/tdoku)" >&2
    exit 2
fi
tdoku_dir=$(cd "$1" && pwd)
shift
build=${TDOKU_BUILD:-$HOME/.cache/autoplay/tdoku-build}
secs=${SECONDS_PER_RUN:-3}
mkdir -p "$build"

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    data=$tdoku_dir/data
    if [ ! -d "$data" ]; then
        if [ -f "$tdoku_dir/data.zip" ]; then
            unzip -qo "$tdoku_dir/data.zip" -d "$build"
            data=$build/data
        else
            echo "no puzzle files given and no $tdoku_dir/data or data.zip" >&2
            exit 2
        fi
    fi
    for f in puzzles2_17_clue puzzles3_magictour_top1465 puzzles5_forum_hardest_1905_11+ puzzles7_serg_benchmark; do
        files+=("$data/$f")
    done
fi

echo "building tdoku into $build ..." >&2
rm -f "$build/CMakeCache.txt" # (the compiler is fixed at the first configure)
CC=${TDOKU_CC:-clang} CXX=${TDOKU_CXX:-clang++} cmake -S "$tdoku_dir" -B "$build" >"$build/cmake.log" 2>&1 ||
    { cat "$build/cmake.log" >&2; exit 1; }
make -C "$build" run_benchmark >"$build/make.log" 2>&1 || { tail -30 "$build/make.log" >&2; exit 1; }
echo "building autoplay ..." >&2
cargo build --release --locked >&2

# The best puzzles/s of one tool's output lines.
tdoku_rate() { # FILE N
    "$build/run_benchmark" -s tdoku -r0 -n "$2" -t "$secs" -w 1 "$1" | awk -F'|' '/^\|tdoku/ { gsub(/[ ,'"'"']/, "", $3); print $3 }'
}
autoplay_rate() { # FILE
    RAYON_NUM_THREADS=1 "$AUTOPLAY" bench sudoku --runs 1 --seconds "$secs" "$1" | awk '/^rate:/ { print $2 }'
}
max() { printf '%s\n' "$@" | sort -g | tail -1; }

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tdoku: $(git -C "$tdoku_dir" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout'), built with" \
    "$("$build/run_benchmark" -h | sed -n 's/^build info: //p')"
echo "autoplay: $(git rev-parse --short HEAD), $("$AUTOPLAY" bench sudoku --runs 1 --seconds 0 "${files[0]}" |
    sed -n 's/.*engine \([a-z0-9+]*\).*/engine \1/p'); best of 3 runs of ${secs} s each, wall time"
printf '%-34s %7s %13s %9s %13s %9s %7s\n' set puzzles "autoplay p/s" "us" "tdoku p/s" "us" ratio
for f in "${files[@]}"; do
    n=$(grep -cv '^\s*\(#\|$\)' "$f")
    ours=() theirs=()
    for _ in 1 2 3; do
        theirs+=("$(tdoku_rate "$f" "$n")")
        ours+=("$(autoplay_rate "$f")")
    done
    a=$(max "${ours[@]}")
    t=$(max "${theirs[@]}")
    awk -v name="$(basename "$f")" -v n="$n" -v a="$a" -v t="$t" 'BEGIN {
        printf "%-34s %7d %13.0f %9.3f %13.0f %9.3f %7.2f\n", name, n, a, 1e6 / a, t, 1e6 / t, a / t }'
done
