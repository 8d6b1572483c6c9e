#!/usr/bin/env bash
# Runs autoplay on a corpus of bad, odd and huge inputs (made here, in a temporary folder) and reports, for
# each case, the exit status, the wall time, the peak memory and the first line of the error; then a summary:
# how many cases, how many panicked (exit 101 or "panicked" on standard error), how many that should fail
# exited 0, and the worst time and memory. Every case runs under a 120 s guard, so a run past 20 s shows.
# Usage: bash scripts/hostile-inputs.sh   (after a release build; see docs/commands.md)
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/env.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# ---- the corpus --------------------------------------------------------------------------------------------
shot=fixtures/flood/12x12c6-tile20.png
sudoku_shot=$(ls fixtures/sudoku/*.png | head -1)
cribbage_shot=$(ls fixtures/cribbage/*.png | head -1)
: >"$dir/empty.png"
head -c 300 "$shot" >"$dir/truncated.png"
python3 - "$shot" "$dir" <<'EOF'
import os, random, struct, sys, zlib
shot, out = sys.argv[1], sys.argv[2]
data = bytearray(open(shot, 'rb').read())
rng = random.Random(7)
for i in range(3):  # bytes flipped past the header
    d = bytearray(data)
    for _ in range(20):
        d[rng.randrange(100, len(d))] ^= 0xff
    open(f'{out}/flipped{i}.png', 'wb').write(d)
def png(path, w, h, rows):
    def chunk(t, b): return struct.pack('>I', len(b)) + t + b + struct.pack('>I', zlib.crc32(t + b) & 0xffffffff)
    raw = zlib.compressobj(9)
    body = b''.join(raw.compress(r) for r in rows) + raw.flush()
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + chunk(b'IDAT', body) + chunk(b'IEND', b''))
png(f'{out}/huge-12000.png', 12000, 12000, (b'\x00' + b'\x80' * 36000 for _ in range(12000)))
png(f'{out}/largest-allowed.png', 6300, 6300, (b'\x00' + bytes([(x // 50 % 3) * 120 for x in range(6300) for _ in range(3)]) for _ in range(6300)))
png(f'{out}/huge-header.png', 100000, 100000, [])
png(f'{out}/one-pixel.png', 1, 1, [b'\x00\xff\x00\x00'])
png(f'{out}/noise.png', 800, 600, (b'\x00' + bytes(rng.randrange(256) for _ in range(2400)) for _ in range(600)))
png(f'{out}/stripes.png', 640, 480, (b'\x00' + bytes([(x // 7 % 2) * 255 for x in range(640) for _ in range(3)]) for _ in range(480)))
open(f'{out}/text.png', 'w').write('not a picture\n')
open(f'{out}/random.bin', 'wb').write(bytes(rng.randrange(256) for _ in range(100000)))
open(f'{out}/flood-ragged.txt', 'w').write('RGB\nRG\nRGBY\n')
open(f'{out}/flood-1000.txt', 'w').write('\n'.join(''.join('RGBYOP'[rng.randrange(6)] for _ in range(1000)) for _ in range(1000)) + '\n')
open(f'{out}/flood-300.txt', 'w').write('\n'.join(''.join('RGBYOP'[rng.randrange(6)] for _ in range(300)) for _ in range(300)) + '\n')
open(f'{out}/flood-strip.txt', 'w').write(''.join('RGBYOP'[rng.randrange(6)] for _ in range(100000)) + '\n')
open(f'{out}/flood-30-c8.txt', 'w').write('\n'.join(''.join('RGBYOPCW'[rng.randrange(8)] for _ in range(30)) for _ in range(30)) + '\n')
open(f'{out}/flood-bom.txt', 'w').write('\ufeffRG\nGR\n')
open(f'{out}/sudoku-clash.txt', 'w').write('55' + '.' * 79 + '\n')
# No clash, but no solution: row 1 needs its 9 in column 9, where row 2 already has one.
open(f'{out}/sudoku-unsolvable.txt', 'w').write('12345678.' + '........9' + '.' * 63 + '\n')
open(f'{out}/sudoku-empty-16.txt', 'w').write('.' * 256 + '\n')
open(f'{out}/sudoku-empty-25.txt', 'w').write('.' * 625 + '\n')
open(f'{out}/sudoku-short.txt', 'w').write('12345\n')
open(f'{out}/lunar-ragged.txt', 'w').write('X..\n..\n')
open(f'{out}/lunar-no-x.txt', 'w').write('o....\n.....\n..+..\n.....\n....o\n')
open(f'{out}/lunar-big.txt', 'w').write(('.' * 200 + '\n') * 200)
open(f'{out}/dandelions-bad.txt', 'w').write('*****\n.....\n.....\n.....\n.....\nwind: N\n')
open(f'{out}/dandelions-ragged.txt', 'w').write('**\n.\n')
open(f'{out}/cribbage-short.txt', 'w').write('275JAJ399TKT8_Q567\n')
open(f'{out}/cribbage-dup.txt', 'w').write('AAAAAAAAAAAAA_AAAAAAAAAAAAA_AAAAAAAAAAAAA_AAAAAAAAAAAAA\n')
open(f'{out}/duel-long-line.txt', 'w').write('Start\n' + 'x' * 6_000_000 + '\n')
open(f'{out}/duel-bad-moves.txt', 'w').write('Aa9\nZz0\nquit\n')
EOF

# Each case: NAME EXPECT (fail | any) COMMAND...   (stdin from /dev/null unless the command reads a file)
cases=()
add() { cases+=("$(printf '%q ' "$@")"); }
for f in empty truncated flipped0 flipped1 flipped2 huge-12000 largest-allowed huge-header one-pixel noise stripes text; do
    for game in flood sudoku cribbage; do add "read-$game-$f" fail read "$game" "$dir/$f.png"; done
    add "play-dry-$f" fail play flood --dry-run --image "$dir/$f.png"
done
add read-sudoku-as-flood fail read flood "$sudoku_shot"
add read-cribbage-as-sudoku fail read sudoku "$cribbage_shot"
add read-flood-as-cribbage fail read cribbage "$shot"
add calibrate-flood-no-truth fail calibrate flood "$shot" --truth "$dir/flood-ragged.txt" --theme hostile-x
add read-random-bytes fail read flood "$dir/random.bin"
cp "$dir/random.bin" "$dir/random.txt"
add solve-flood-bom any solve flood "$dir/flood-bom.txt"
for f in flood-ragged flood-1000 flood-300 flood-strip random; do add "solve-flood-$f" fail solve flood "$dir/$f.txt"; done
add solve-flood-hard-30x30-c8 any solve flood "$dir/flood-30-c8.txt"
add solve-flood-time-1e308 any solve flood "$dir/flood-bom.txt" --time-limit 1e308
add solve-flood-time-negative fail solve flood "$dir/flood-bom.txt" --time-limit -1
add solve-flood-time-nan fail solve flood "$dir/flood-bom.txt" --time-limit nan
for f in sudoku-clash sudoku-unsolvable sudoku-short random; do add "solve-sudoku-$f" fail solve sudoku "$dir/$f.txt"; done
add solve-sudoku-empty-16 any solve sudoku "$dir/sudoku-empty-16.txt"
add solve-sudoku-empty-25 any solve sudoku "$dir/sudoku-empty-25.txt"
add solve-sudoku-count-empty-9 any solve sudoku --count "$dir/sudoku-empty-16.txt"
add solve-sudoku-count-limit-0 fail solve sudoku --count --count-limit 0 "$dir/sudoku-clash.txt"
for f in lunar-ragged lunar-no-x lunar-big random; do add "solve-lunar-$f" fail solve lunar "$dir/$f.txt"; done
for f in dandelions-bad dandelions-ragged random; do add "solve-dandelions-$f" fail solve dandelions "$dir/$f.txt"; done
for f in cribbage-short cribbage-dup random; do add "solve-cribbage-$f" fail solve cribbage "$dir/$f.txt"; done
add solve-cribbage-deal-huge fail solve cribbage --deal 99999999999999999999999
add solve-cribbage-deals-reversed fail solve cribbage --deals 9-3
for f in duel-long-line duel-bad-moves random; do add "duel-$f" fail duel sudoku "<$dir/$f.txt"; done
add replay-not-a-folder fail replay "$dir/random.bin"
add replay-empty-folder fail replay "$dir"
add capture-no-display-to-dev-full fail capture -o /dev/full

# ---- the run -----------------------------------------------------------------------------------------------
printf '%-36s %4s %8s %8s  %s\n' case exit seconds 'peak MB' 'first line of standard error'
panics=0 wrong=0 worst_s=0 worst_mb=0 worst_s_case='' worst_mb_case=''
for line in "${cases[@]}"; do
    eval "set -- $line"
    name=$1 expect=$2
    shift 2
    stdin=/dev/null
    last=${!#}
    if [ "${last:0:1}" = '<' ]; then stdin=${last:1}; set -- "${@:1:$#-1}"; fi
    env -u DISPLAY /usr/bin/time -f '%e %M' -o "$dir/time" timeout 120 "$AUTOPLAY" "$@" <"$stdin" >"$dir/out" 2>"$dir/err"
    status=$?
    read -r seconds kb < <(tail -1 "$dir/time")
    mb=$((kb / 1024))
    first=$( (grep '^autoplay: error' "$dir/err" || grep -v '^\s*$' "$dir/err") | head -1 | tr '\r' '\n' | tail -1 | cut -c1-110)
    mark=''
    if [ "$status" = 101 ] || grep -q panicked "$dir/err"; then mark=' PANIC'; panics=$((panics + 1)); fi
    if [ "$expect" = fail ] && [ "$status" = 0 ]; then mark="$mark EXIT-0"; wrong=$((wrong + 1)); fi
    printf '%-36s %4s %8s %8s  %s%s\n' "$name" "$status" "$seconds" "$mb" "$first" "$mark"
    if awk "BEGIN {exit !($seconds > $worst_s)}"; then worst_s=$seconds worst_s_case=$name; fi
    if [ "$mb" -gt "$worst_mb" ]; then worst_mb=$mb worst_mb_case=$name; fi
done
echo "cases: ${#cases[@]}; panics: $panics; should have failed but exited 0: $wrong; worst time ${worst_s} s ($worst_s_case); worst memory ${worst_mb} MB ($worst_mb_case)"
[ "$panics" = 0 ] && [ "$wrong" = 0 ]
