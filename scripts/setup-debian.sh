#!/usr/bin/env bash
# Installs everything autoplay needs on Debian 12 (as root or with sudo): the C libraries xcap builds against,
# the virtual desktop (Xvfb, openbox, X tools; sway and XWayland for a Wayland session), Simon Tatham's puzzles, GNOME Sudoku, KSudoku, Chromium, and Rust if
# cargo is missing.
set -euo pipefail

packages=(
    # building xcap (its X11, Wayland, PipeWire and GBM back ends are always compiled in)
    build-essential pkg-config clang libpipewire-0.3-dev libspa-0.2-dev libwayland-dev libegl-dev libgbm-dev libxcb1-dev libxkbcommon-dev
    # the desktop the bot and its tests run on
    xvfb openbox x11-utils x11-apps xdotool netpbm
    # the games (GNOME Sudoku is about 170 MB, KSudoku about 140 MB), and a browser for the web clients
    sgt-puzzles gnome-sudoku ksudoku chromium
    # fonts whose digits the Sudoku reader knows with no calibration (calibration/fonts.toml)
    fonts-dejavu-core fonts-urw-base35
    # a Sudoku generator and solver, the peer of the Sudoku benchmark; cmake to build tdoku, the peer of the 9×9
    # solver, as its authors build it (scripts/bench/tdoku.sh, with the clang above)
    qqwing cmake
    # a Wayland session with XWayland for the Wayland live tests (sway runs headless, with the wallpaper its default
    # configuration names: without it sway shows its red error bar); grim, which captures its output apart from the
    # bot, and wtype, which presses a key there as the user would
    sway sway-backgrounds xwayland grim wtype
    # a second wlroots compositor with no IPC, for the Wayland live test that finds the board in the whole output
    phoc
    # GNOME's compositor, mutter, run headless for the GNOME live tests, with what its screen casts need (a session
    # bus, PipeWire, WirePlumber); the tests' own hand and eye there (tests/common/mutter_hand.py): GLib's Python
    # bindings, and GStreamer's PipeWire source
    mutter dbus pipewire wireplumber libgl1-mesa-dri python3-gi gstreamer1.0-pipewire gstreamer1.0-tools \
    gstreamer1.0-plugins-base gstreamer1.0-plugins-good
    # KDE's compositor, KWin, run headless for the KDE live tests (its screenshot service is the tests' eye there)
    kwin-wayland
    # a terminal program whose window has only the old WM_NAME title: Debian's curses Sudoku in xterm, and
    # xterm's default bitmap font (`fixed`, 6×13), which a desktop install has (the xorg package depends on it)
    xterm sudoku xfonts-base
    # the Tk Cribbage table (fixtures/tables/cribbage_tk.py): Tk for Python, KDE's SVG card decks, rsvg-convert to
    # export their cards, and ImageMagick's import for its window captures (scripts/fixtures/cribbage-tk.sh)
    python3-tk kdegames-card-data-kf5 librsvg2-bin imagemagick
    # a game engine's Flood-It that polls its input once a frame (fixtures/tables/flood_pygame.py)
    python3-pygame
    # the Java Swing Flood-It and Sudoku (fixtures/tables/*.java): javac and a JRE with AWT
    default-jdk
    # the client zoo (fixtures/zoo, `autoplay bench zoo`): GTK 3 with cairo for Python, SDL2 and SDL2_ttf for its C
    # clients, and more fonts to draw its digits and ranks in
    gir1.2-gtk-3.0 python3-gi-cairo libsdl2-dev libsdl2-ttf-dev fonts-liberation2 fonts-freefont-ttf
)

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    "${sudo[@]}" apt-get update -qq
    for attempt in 1 2 3; do
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
            --no-install-recommends "${missing[@]}" && break
        [ "$attempt" -lt 3 ] || exit 1
        sleep 10
    done
fi

if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
    echo "Rust is missing: installing it with rustup (https://rustup.rs)" >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends curl ca-certificates
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    export PATH="$HOME/.cargo/bin:$PATH"
fi
# The house checks of scripts/test.sh: rustfmt and clippy (rustup's minimal profile has neither).
if command -v rustup >/dev/null 2>&1; then
    for component in rustfmt clippy; do
        rustup component list --installed 2>/dev/null | grep -q "^$component" || rustup component add "$component"
    done
fi
