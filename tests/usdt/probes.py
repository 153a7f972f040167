#!/usr/bin/env python3
# The library's USDT probe sites on this machine's kernel, without the
# tool: uprobes defined from the library's own .note.stapsdt (read with
# readelf), on warning and info only, in a tracefs of the test's own
# (scripts/tracefs-ns fresh).  probe_calls logs at every level; checked:
# the trace holds exactly the events of the two traced levels, field by
# field, each event argument decodes to an EventHeader event of its
# level carrying the message, a long message comes in parts that add up
# to it, and the probes' semaphore is 0x7f + 2 while both are on and back
# at 0x7f after.  Usage: probes.py LIBRARY PROBE_CALLS
import base64, os, re, subprocess, sys

lib, prog = os.path.realpath(sys.argv[1]), sys.argv[2]
T = "/sys/kernel/tracing"
group = "ehsprobes%d" % os.getpid()
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def notes():
    out = subprocess.run(["readelf", "-n", lib], capture_output=True, text=True, check=True).stdout
    probes = {}
    for m in re.finditer(r"Provider: (\S+)\s+Name: (\S+)\s+Location: (0x[0-9a-f]+), Base: \S+, "
                         r"Semaphore: (0x[0-9a-f]+)\s+Arguments: ([^\n]*)", out):
        probes[(m.group(1), m.group(2))] = (int(m.group(3), 16), int(m.group(4), 16), m.group(5))
    return probes


def file_offset(addr):
    out = subprocess.run(["readelf", "-lW", lib], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            off, vaddr, memsz = int(f[1], 16), int(f[2], 16), int(f[5], 16)
            if vaddr <= addr < vaddr + memsz:
                return addr - vaddr + off
    raise SystemExit("no PT_LOAD holds 0x%x" % addr)


def write(path, text):
    # os.open: Python's append mode seeks to the end, which tracefs refuses.
    fd = os.open(os.path.join(T, path), os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def semaphore(pid, sem_off):
    """The semaphore's byte in pid's mapping of the library."""
    st = os.stat(lib)
    with open("/proc/%d/maps" % pid) as maps:
        for line in maps:
            f = line.split()
            start, end = (int(x, 16) for x in f[0].split("-"))
            off, inode = int(f[2], 16), int(f[4])
            if inode == st.st_ino and off <= sem_off < off + (end - start):
                with open("/proc/%d/mem" % pid, "rb") as mem:
                    mem.seek(start + sem_off - off)
                    return mem.read(1)[0]
    return None


probes = notes()
LEVELS = ["critical", "error", "warning", "info", "verbose"]
check(sorted(n for p, n in probes if p == "ehsyslog") == sorted(LEVELS),
      "the note names a probe per level: %s" % sorted(probes))
sems = {s for (_, s, _) in probes.values()}
check(len(sems) == 1, "the five probes share one semaphore: %s" % sems)
want_args = "8@%rdi 8@%rsi -4@%edx -4@%ecx -4@%r8d 8@%r9"
check(all(a == want_args for (_, _, a) in probes.values()), "argument locations")
if failures:
    sys.exit(1)
sem_off = file_offset(sems.pop())

fetch = ("message=+0(%di):ustring name=+0(%si):ustring severity=%dx:s32 facility=%cx:s32 "
         "errno=%r8:s32 event=+0(%r9):ustring")
defined = []
try:
    for level in ("warning", "info"):
        loc = file_offset(probes[("ehsyslog", level)][0])
        write("uprobe_events", "p:%s/%s %s:0x%x(0x%x) %s\n" % (group, level, lib, loc, sem_off, fetch))
        defined.append(level)
        write("events/%s/%s/enable" % (group, level), "1")
    # probe_calls is linked with the built library; the copy, preloaded,
    # answers for its soname (semaphore() finds only the copy's mapping).
    p = subprocess.Popen([prog], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ, LD_PRELOAD=lib))
    said = [p.stdout.readline() for _ in range(6)]
    check(said == ["big -1 E2BIG\n", "big cached -1 E2BIG\n", "big cached -1 E2BIG\n",
                   "big untraced 0\n", "fits 1\n", "logged\n"],
          "the native calls' results, then logged: %s" % said)
    check(semaphore(p.pid, sem_off) == 0x81, "semaphore with two probes on: 0x%02x"
          % (semaphore(p.pid, sem_off) or 0))
    for level in defined:
        write("events/%s/%s/enable" % (group, level), "0")
    check(semaphore(p.pid, sem_off) == 0x7f, "semaphore after the tracer left: 0x%02x"
          % (semaphore(p.pid, sem_off) or 0))
    p.communicate("go\n")
    check(p.returncode == 0, "probe_calls exit %s" % p.returncode)
    with open(os.path.join(T, "trace")) as f:
        trace = [l for l in f if not l.startswith("#")]
finally:
    for level in defined:
        write("events/%s/%s/enable" % (group, level), "0")
        write("uprobe_events", "-:%s/%s\n" % (group, level))

rec = re.compile(r' ([a-z]+): \(0x[0-9a-f]+\) message="(.*)" name="(.*)" severity=(-?\d+) '
                 r'facility=(-?\d+) errno=(-?\d+) event="([A-Za-z0-9+/=]*)"$')
events = []
for line in trace:
    m = rec.search(line.rstrip("\n"))
    check(m is not None, "a record in the expected form: %r" % line[:200])
    if m:
        events.append(m.groups())

# What was logged, in order, and which levels were traced: severity 4
# is warning (level 3), 5 and 6 are info (level 4).
want = [("warning", "severity 4", "Syslog:usdtdemo", 4, 16),
        ("info", "severity 5", "Syslog:usdtdemo", 5, 16),
        ("info", "severity 6", "Syslog:usdtdemo", 6, 16),
        ("warning", "daemon facility", "Syslog:usdtdemo", 4, 3),
        ("warning", "warned 7", "Syslog:usdtdemo", 4, 16),
        ("info", "", "Syslog:native_event", 6, 16),
        ("warning", "", "Syslog:native_cached", 4, 3),
        ("warning", "", "Syslog:native_cached", 4, 3),
        ("info", "", "Syslog:native_fits", 6, 16)]
got = [(e[0], e[1], e[2], int(e[3]), int(e[4])) for e in events[:len(want)]]
check(got == want, "the traced events in order:\n  got  %s\n  want %s" % (got, want))

parts = events[len(want):]
check(len(parts) >= 2, "the 3000-byte message in parts: %d events" % len(parts))
check("".join(e[1] for e in parts) == "x" * 3000, "the parts add up to the message")
check(all(e[0] == "info" and int(e[3]) == 5 for e in parts), "every part at info, severity 5")

for e in events:
    ev = base64.b64decode(e[6], validate=True)
    check(len(ev) <= 1536, "an event within USDT_EVENT_MAX: %d" % len(ev))
    check(ev[7] == LEVELS.index(e[0]) + 1, "event level byte %d for %s" % (ev[7], e[0]))
    check(e[1].encode() in ev, "the event carries the message %r" % e[1][:20])
    check(e[2].split(":", 1)[1].encode() + b"\0" in ev, "the event carries its name %s" % e[2])
check(not any("after the tracer left" in e[1] for e in events), "nothing after the tracer left")

print("%d events checked, %d failures" % (len(events), len(failures)))
sys.exit(1 if failures else 0)
