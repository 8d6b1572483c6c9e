#!/usr/bin/python3
"""A user's hand and eye on a GNOME (mutter) session, apart from the bot, for the live tests: `click X Y` (the left
button at a point of the monitor), `move-by DX DY` (the pointer pushed as a hand pushes the mouse), `shot FILE.png`
(the monitor's picture, through a screen cast of its own and GStreamer's PipeWire source; `-`: to standard output).

It speaks to mutter's D-Bus services through GLib (python3-gi), as GNOME's own tools do, and shares no code with the
bot: a test's verdict on a picture does not rest on the bot's own capture."""
import subprocess, sys, time
from gi.repository import Gio, GLib

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
RD, SC = 'org.gnome.Mutter.RemoteDesktop', 'org.gnome.Mutter.ScreenCast'


def call(service, path, interface, method, args=None):
    return bus.call_sync(service, path, interface, method, args, None, Gio.DBusCallFlags.NONE, -1, None).unpack()


def started_stream(cast_options, start):
    """A monitor stream of a new screen cast session (made with `cast_options`), started by `start`; its path and
    PipeWire node."""
    cast = call(SC, '/org/gnome/Mutter/ScreenCast', SC, 'CreateSession', GLib.Variant('(a{sv})', (cast_options,)))[0]
    stream = call(SC, cast, SC + '.Session', 'RecordMonitor', GLib.Variant('(sa{sv})', ('', {})))[0]
    nodes = []
    bus.signal_subscribe(SC, SC + '.Stream', 'PipeWireStreamAdded', stream, None, Gio.DBusSignalFlags.NONE,
                         lambda *args: nodes.append(args[5].unpack()[0]))
    start(cast)
    context = GLib.MainContext.default()
    deadline = time.monotonic() + 60
    while not nodes and time.monotonic() < deadline:
        context.iteration(False)
        time.sleep(0.01)
    if not nodes:
        sys.exit('mutter announced no stream')
    return stream, nodes[0]


def hand():
    session = call(RD, '/org/gnome/Mutter/RemoteDesktop', RD, 'CreateSession')[0]
    return session, RD + '.Session'


what = sys.argv[1]
if what == 'shot':
    def start(cast):
        call(SC, cast, SC + '.Session', 'Start')
    stream, node = started_stream({}, start)
    into = '/dev/stdout' if sys.argv[2] == '-' else sys.argv[2]
    subprocess.run(['gst-launch-1.0', '-q', 'pipewiresrc', f'path={node}', 'num-buffers=1', '!', 'videoconvert',
                    '!', 'pngenc', '!', 'filesink', f'location={into}'], check=True, timeout=120)
elif what == 'click':
    session, interface = hand()
    session_id = call(RD, session, 'org.freedesktop.DBus.Properties', 'Get', GLib.Variant('(ss)', (interface, 'SessionId')))[0]
    stream, _ = started_stream({'remote-desktop-session-id': GLib.Variant('s', session_id)},
                               lambda cast: call(RD, session, interface, 'Start'))
    x, y = float(sys.argv[2]), float(sys.argv[3])
    call(RD, session, interface, 'NotifyPointerMotionAbsolute', GLib.Variant('(sdd)', (stream, x, y)))
    time.sleep(0.1)
    call(RD, session, interface, 'NotifyPointerMotionAbsolute', GLib.Variant('(sdd)', (stream, x, y)))
    time.sleep(0.1)
    call(RD, session, interface, 'NotifyPointerButton', GLib.Variant('(ib)', (272, True)))
    time.sleep(0.1)
    call(RD, session, interface, 'NotifyPointerButton', GLib.Variant('(ib)', (272, False)))
    time.sleep(0.1)
    call(RD, session, interface, 'Stop')
elif what == 'move-by':
    session, interface = hand()
    call(RD, session, interface, 'Start')
    for _ in range(2):  # (the first event of a session's new pointer may be lost)
        call(RD, session, interface, 'NotifyPointerMotionRelative', GLib.Variant('(dd)', (float(sys.argv[2]), float(sys.argv[3]))))
        time.sleep(0.2)
    call(RD, session, interface, 'Stop')
else:
    sys.exit(f'unknown: {what}')
