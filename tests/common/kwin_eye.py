#!/usr/bin/python3
"""The test's eye on a KDE (KWin) session, apart from the bot: `shot FILE.ppm` writes the whole workspace's picture
(`-`: to standard output), taken through KWin's screenshot service (`org.kde.KWin.ScreenShot2.CaptureWorkspace`,
the raw pixels written into a pipe passed with the call) by GLib's Python bindings. It shares no code with the bot:
a test's verdict on a picture does not rest on the bot's own capture."""
import os
import sys
import threading

from gi.repository import Gio, GLib

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
reader, writer = os.pipe()
received = bytearray()


def read_all():
    while True:
        chunk = os.read(reader, 1 << 16)
        if not chunk:
            return
        received.extend(chunk)


thread = threading.Thread(target=read_all)
thread.start()
fds = Gio.UnixFDList.new()
index = fds.append(writer)  # (a copy of the writer's descriptor goes with the call)
os.close(writer)
reply, _ = bus.call_with_unix_fd_list_sync(
    'org.kde.KWin', '/org/kde/KWin/ScreenShot2', 'org.kde.KWin.ScreenShot2', 'CaptureWorkspace',
    GLib.Variant('(a{sv}h)', ({'include-cursor': GLib.Variant('b', False)}, index)), GLib.VariantType('(a{sv})'),
    Gio.DBusCallFlags.NONE, -1, fds, None)
del fds
results = reply.unpack()[0]
thread.join(timeout=60)
width, height, stride, form = results['width'], results['height'], results['stride'], results['format']
# QImage formats: 4-6 are 0xAARRGGBB words (B, G, R, A in memory), 16-18 are R, G, B, A bytes.
order = {4: (2, 1, 0), 5: (2, 1, 0), 6: (2, 1, 0), 16: (0, 1, 2), 17: (0, 1, 2), 18: (0, 1, 2)}[form]
rgb = bytearray()
for row in range(height):
    line = received[row * stride:row * stride + width * 4]
    pixels = [line[i::4] for i in range(4)]
    interleaved = bytearray(width * 3)
    for out, channel in enumerate(order):
        interleaved[out::3] = pixels[channel]
    rgb.extend(interleaved)
picture = b'P6\n%d %d\n255\n' % (width, height) + bytes(rgb)
if sys.argv[2] == '-':
    sys.stdout.buffer.write(picture)
else:
    with open(sys.argv[2], 'wb') as out:
        out.write(picture)
