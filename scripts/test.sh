#!/usr/bin/env bash
# Installs what is needed, builds once (release: one profile for tests, tools and benchmarks), and runs every
# test: unit tests, fixture replays, command-line tests, and live games on a virtual desktop.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
source scripts/env.sh
cargo build --release --locked
cargo test --release --locked
