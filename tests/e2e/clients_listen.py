#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every socket a syslog client may write to, for tests/e2e/clients.sh:
a syslog daemon's and journald's unix datagram sockets, syslog over UDP
and over TCP.  Appends what it receives to OUT, one line per datagram or
per TCP connection (the whole stream, framing included, once the peer
closes it): the socket's name, a space, the bytes in hex.  Creates
OUT.ready once every socket is bound.  On SIGTERM it reads what is still
queued, then exits 0.

usage: clients_listen.py OUT [NAME=ADDRESS]...
  NAME unix-dgram socket: devlog=PATH, journal=PATH (any name but
  udp*/tcp*); udpN=HOST:PORT, tcpN=HOST:PORT (N: any tag, the port say).
  --lo-up first brings the loopback interface up (the test guest's
  init does not).
"""
import fcntl
import os
import select
import signal
import socket
import struct
import sys

SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


def lo_up():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        req = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack_from("16sH", fcntl.ioctl(s, SIOCGIFFLAGS, req))[1]
        if not flags & IFF_UP:
            fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def bind(name, addr):
    if name.startswith(("udp", "tcp")):
        host, _, port = addr.rpartition(":")
        kind = socket.SOCK_DGRAM if name.startswith("udp") else socket.SOCK_STREAM
        s = socket.socket(socket.AF_INET, kind)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, int(port)))
        if kind == socket.SOCK_STREAM:
            s.listen(16)
        return s
    try:
        os.unlink(addr)
    except FileNotFoundError:
        pass
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(addr)
    os.chmod(addr, 0o666)
    return s


def main():
    args = sys.argv[1:]
    if args and args[0] == "--lo-up":
        lo_up()
        args = args[1:]
    if not args:
        raise SystemExit(__doc__)
    out, specs = args[0], [a.partition("=")[::2] for a in args[1:]]
    socks = {}		# socket -> name
    paths = []
    for name, addr in specs:
        socks[bind(name, addr)] = name
        if not name.startswith(("udp", "tcp")):
            paths.append(addr)
    conns = {}		# accepted TCP socket -> [name, bytes so far]
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    with open(out, "a") as f:
        def record(name, data):
            f.write(f"{name} {data.hex()}\n")
            f.flush()

        open(out + ".ready", "w").close()
        # Polls so that SIGTERM is seen between datagrams; after it, reads
        # whatever is queued without waiting, then what open connections
        # still hold.
        while True:
            stop = bool(stopping)
            ready, _, _ = select.select(list(socks) + list(conns), [], [], 0 if stop else 0.1)
            if not ready:
                if stop:
                    break
                continue
            for s in ready:
                if s in conns:
                    data = s.recv(1 << 20)
                    if data:
                        conns[s][1] += data
                        continue
                    name, stream = conns.pop(s)
                    s.close()
                    # A connection that sent nothing is no record.
                    if stream:
                        record(name, stream)
                elif s.type == socket.SOCK_STREAM:
                    c, _ = s.accept()
                    conns[c] = [socks[s], b""]
                else:
                    record(socks[s], s.recv(1 << 20))
        for name, stream in conns.values():
            if stream:
                record(name, stream)
    for p in paths:
        os.unlink(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
