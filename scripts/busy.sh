#!/usr/bin/env bash
# A busy desktop on demand: N processes that keep the processors busy at the same priority as everything else
# (what a build or a browser does to a desktop), ended with this script.
#
#   scripts/busy.sh N                  until interrupted (Ctrl-C, or the script killed)
#   scripts/busy.sh N -- COMMAND ...   while COMMAND runs; exits with COMMAND's status
#
# Half of them spin in user space, half make system calls as fast as they can (as a compiler's reads and
# writes do), so both the scheduler and the kernel are contended.
set -euo pipefail
n=${1:?usage: scripts/busy.sh N [-- COMMAND ...]}
shift
[[ $n =~ ^[0-9]+$ ]] || { echo "busy.sh: N must be a whole number, not '$n'" >&2; exit 2; }
pids=()
stop() {
    [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap stop EXIT
trap 'exit 130' INT TERM
for i in $(seq "$n"); do
    if (( i % 2 )); then
        bash -c 'while :; do :; done' &
    else
        bash -c 'exec dd if=/dev/zero of=/dev/null bs=512 2>/dev/null' &
    fi
    pids+=($!)
done
echo "busy.sh: $n busy processes (${pids[*]})" >&2
if [ "${1:-}" = "--" ]; then
    shift
    set +e
    "$@"
    status=$?
    set -e
    exit "$status"
fi
wait
