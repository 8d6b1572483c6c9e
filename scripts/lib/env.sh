# Sourced by the scripts: puts cargo on PATH and keeps the build outside the clone (xcap alone takes minutes to
# build, so one optimised build in a lasting folder serves tests, tools and benchmarks across clones and runs).
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/autoplay-target}
AUTOPLAY=$CARGO_TARGET_DIR/release/autoplay
