"""A pseudo-terminal for the Marlin simulator (started by marlin_pty.ts, not by hand).

Usage: python3 marlin_pty.py LINK BAUD MAX_SECONDS

Creates a pty pair in raw mode with its speed set to BAUD, links LINK to the slave
(/dev/pts/N) and bridges the master to this process's pipes: what the host writes comes
out on stdout, what arrives on stdin goes to the host. Events go to stderr, one a line:
"path /dev/pts/N", "open" and "close" (a host opened or closed the slave: the master
reports POLLHUP while nobody holds it, checked every 10 ms, so a close and reopen
quicker than that is not seen), "baud N" (the speed a host set on the tty,
read with TCGETS2, so 250000 too). Output is dropped while no host holds the tty, as
a board's USB serial drops it. Exits, removing LINK, on stdin's end, SIGTERM or after
MAX_SECONDS.
"""
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import time
import tty

TCGETS2 = 0x802C542A
TCSETS2 = 0x402C542B
CBAUD, BOTHER, CIBAUD = 0o010017, 0o010000, 0o02003600000


def event(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def get_speed(fd):
    buf = bytearray(44)
    fcntl.ioctl(fd, TCGETS2, buf)
    return struct.unpack_from("I", buf, 40)[0]


def set_speed(fd, baud):
    buf = bytearray(44)
    fcntl.ioctl(fd, TCGETS2, buf)
    cflag = struct.unpack_from("I", buf, 8)[0]
    struct.pack_into("I", buf, 8, (cflag & ~(CBAUD | CIBAUD)) | BOTHER)
    struct.pack_into("II", buf, 36, baud, baud)
    fcntl.ioctl(fd, TCSETS2, bytes(buf))


def main():
    link, baud, max_seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    master, slave = pty.openpty()
    tty.setraw(slave)
    set_speed(slave, baud)
    name = os.ttyname(slave)
    os.close(slave)
    os.set_blocking(master, False)
    tmp = link + ".new"
    os.symlink(name, tmp)
    os.replace(tmp, link)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    speed = get_speed(master)
    event("path " + name)
    try:
        bridge(master, speed, time.monotonic() + max_seconds)
    finally:
        if os.path.islink(link) and os.readlink(link) == name:
            os.unlink(link)


def bridge(master, speed, deadline):
    event("baud %d" % speed)
    poller = select.poll()
    poller.register(master, select.POLLIN)
    attached, pending = False, b""
    while time.monotonic() < deadline:
        hup = any(ev & select.POLLHUP for _, ev in poller.poll(0))
        if hup == attached:
            attached, pending = not hup, b""
            event("open" if attached else "close")
        now = get_speed(master)
        if now != speed:
            speed = now
            event("baud %d" % speed)
        wanted = [0] + ([master] if attached else [])
        writable = [master] if attached and pending else []
        readable, ready, _ = select.select(wanted, writable, [], 0.01)
        if master in readable:
            try:
                data = os.read(master, 4096)
            except OSError:
                data = b""
            if data:
                os.write(1, data)
        if 0 in readable:
            data = os.read(0, 65536)
            if not data:
                return
            if attached:
                pending = (pending + data)[-(1 << 20):]
        if pending and (master in ready or not writable):
            try:
                pending = pending[os.write(master, pending):]
            except BlockingIOError:
                pass
            except OSError:
                pending = b""


if __name__ == "__main__":
    main()
