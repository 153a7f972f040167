#!/usr/bin/env python3
"""Starts a program with its standard output and error connected to
journald's stream socket as systemd (PID 1) connects a service's: the
seven header lines, the read side shut, JOURNAL_STREAM set to the
socket's device and inode, then exec.  Used by the journal stream tests.

usage: journal_launch.py [--no-env] [--cgroup DIR] IDENTIFIER UNIT PROGRAM [ARG]...
--no-env: JOURNAL_STREAM left unset (as systemd-cat leaves it).
--cgroup DIR: the process moved into the cgroup at DIR first, as systemd
moves a service into its unit's cgroup.
"""
import os
import socket
import sys

args = sys.argv[1:]
set_env = True
cgroup = None
while args and args[0] in ("--no-env", "--cgroup"):
    if args[0] == "--no-env":
        set_env = False
        args = args[1:]
    elif len(args) > 1:
        cgroup = args[1]
        args = args[2:]
    else:
        break
if len(args) < 3:
    sys.exit("usage: journal_launch.py [--no-env] [--cgroup DIR] IDENTIFIER UNIT PROGRAM [ARG]...")
ident, unit, program = args[0], args[1], args[2:]
if cgroup is not None:
    with open(os.path.join(cgroup, "cgroup.procs"), "w") as f:
        f.write("%d\n" % os.getpid())

s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect("/run/systemd/journal/stdout")
# identifier, unit, priority (daemon.info, as a service's), level
# prefix, forward to syslog, to kmsg, to the console
s.sendall(("%s\n%s\n%d\n1\n0\n0\n0\n" % (ident, unit, 3 << 3 | 6)).encode())
s.shutdown(socket.SHUT_RD)
st = os.fstat(s.fileno())
os.dup2(s.fileno(), 1)
os.dup2(s.fileno(), 2)
s.close()
env = dict(os.environ)
env.pop("JOURNAL_STREAM", None)
if set_env:
    env["JOURNAL_STREAM"] = "%d:%d" % (st.st_dev, st.st_ino)
os.execvpe(program[0], program, env)
