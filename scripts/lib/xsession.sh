# Shell helpers for a virtual desktop: source this file, then `start_xsession :N` starts Xvfb and openbox on
# display :N (`free_display BASE` picks a free one), waits until both are ready and exports DISPLAY;
# `stop_xsession` ends them.
# Xvfb runs with -noreset (xcap opens and closes a connection per capture; without it the server resets).

# free_display BASE: prints a display name :N, N in BASE..BASE+99, whose X lock file does not exist.
free_display() {
    local base=$1 n
    n=$((base + RANDOM % 100))
    while [ -e "/tmp/.X$n-lock" ]; do n=$((base + RANDOM % 100)); done
    echo ":$n"
}

start_xsession() {
    local display=$1 screen=${XSESSION_SCREEN:-1280x1024x24}
    Xvfb "$display" -screen 0 "$screen" -noreset -nolisten tcp >/dev/null 2>&1 &
    XSESSION_XVFB_PID=$!
    local i
    for i in $(seq 200); do
        xdpyinfo -display "$display" >/dev/null 2>&1 && break
        sleep 0.05
    done
    xdpyinfo -display "$display" >/dev/null 2>&1 || { echo "Xvfb did not start on $display" >&2; return 1; }
    DISPLAY=$display openbox >/dev/null 2>&1 &
    XSESSION_WM_PID=$!
    for i in $(seq 200); do
        DISPLAY=$display xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id' && break
        sleep 0.05
    done
    export DISPLAY=$display
}

stop_xsession() {
    kill "${XSESSION_WM_PID:-}" "${XSESSION_XVFB_PID:-}" 2>/dev/null || true
    wait "${XSESSION_WM_PID:-}" "${XSESSION_XVFB_PID:-}" 2>/dev/null || true
}

# wait_for_window TITLE: waits until a window with exactly this title is mapped, then until its picture settles.
wait_for_window() {
    local title=$1 i
    for i in $(seq 200); do
        xdotool search --onlyvisible --name "^${title}\$" >/dev/null 2>&1 && break
        sleep 0.05
    done
    sleep 0.8
}

# capture_window TITLE MODE FILE: MODE "window" captures the window titled TITLE; "screen@X,Y" moves it to X,Y
# and captures the whole screen. Uses $AUTOPLAY (scripts/lib/env.sh).
capture_window() {
    local title=$1 mode=$2 file=$3
    case $mode in
        window) "$AUTOPLAY" capture --window "$title" -o "$file" ;;
        screen@*)
            local at=${mode#screen@}
            xdotool search --name "^${title}\$" windowmove "${at%,*}" "${at#*,}"
            sleep 0.8
            "$AUTOPLAY" capture --screen -o "$file"
            ;;
        *) echo "capture_window: unknown mode '$mode'" >&2; return 1 ;;
    esac
}
