#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A syslog daemon's socket for the pass-through test: binds the unix
datagram socket PATH (/dev/log in the guest) and appends every datagram
to OUT, one per line in hex.  Creates OUT.ready once bound.  On SIGTERM
it reads what is still queued, then exits 0.

usage: devlog.py PATH OUT
"""
import os
import select
import signal
import socket
import sys


def main():
    path, out = sys.argv[1:3]
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    os.chmod(path, 0o666)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    with open(out, "a") as f:
        open(out + ".ready", "w").close()
        # Polls so that SIGTERM is seen between datagrams; after it, reads
        # whatever is queued without waiting.
        while True:
            stop = bool(stopping)
            ready, _, _ = select.select([sock], [], [], 0 if stop else 0.1)
            if not ready:
                if stop:
                    break
                continue
            f.write(sock.recv(1 << 20).hex() + "\n")
            f.flush()
    os.unlink(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
