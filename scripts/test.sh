#!/usr/bin/env bash
# Installs what is needed, checks the formatting (cargo fmt) and clippy's warnings, builds once (release: one
# profile for tests, tools and benchmarks), and runs every test: unit tests, fixture replays, command-line tests,
# and live games on a virtual desktop. Ends with one summary line: "tests: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
source scripts/lib/env.sh
# House checks first: the code as rustfmt formats it (rustfmt.toml), and no clippy warning.
cargo fmt --check
cargo clippy --release --locked --all-targets -- -D warnings
cargo build --release --locked
log=$(mktemp)
set +e
cargo test --release --locked --all-targets 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
passed=$(grep -oE '^test result: .* ([0-9]+) passed' "$log" | grep -oE '[0-9]+ passed' | awk '{s += $1} END {print s + 0}')
failed=$(grep -oE '^test result: .* ([0-9]+) failed' "$log" | grep -oE '[0-9]+ failed' | awk '{s += $1} END {print s + 0}')
rm -f "$log"
echo "tests: $passed passed, $failed failed"
exit "$status"
