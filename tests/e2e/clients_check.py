#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What each syslog client of tests/e2e/clients.sh must send and the
events it must make, and the checks of both.

  clients_check.py count RUNS -
      prints how many events the runs must make;
  clients_check.py datagrams RUNS RECORDS
      what tests/e2e/clients_listen.py received (RECORDS) is, socket by
      socket and in order, exactly the bytes each client run (RUNS, as
      tests/e2e/clients_run.sh writes it: name, pid, exit status) sends,
      timestamps and the hostname aside (see TEMPLATE);
  clients_check.py json RUNS EVENTS
      `ehsyslog tail --json` or `ehsyslog decode --json` lines: per
      client (the events whose meta.tid is its pid: every client is
      single-threaded), the events in order, each field exactly: name,
      message, severity, facility, an errno, then the extra fields and
      no other; meta level, keyword and tid;
  clients_check.py raw RUNS INSTANCE_DIR
      the same from a tracefs instance's ring buffers, decoded
      independently of the project's code (tests/e2e/journal_check.py's
      reader, tests/lib/eventheader.py): tracepoint name, level, event
      name, message bytes, severity, facility, errno, extras, the pid;
  clients_check.py text RUNS LINES
      `ehsyslog tail`'s text lines: "ident[pid]: facility.severity
      message [extras]" after the time and host, per client in order.

Events of any other thread are reported as extra.  Exit 0 when all
match, 1 otherwise, every difference printed.

TEMPLATE: a client's bytes, literal but for {T3164} (RFC 3164's
"Mmm dd hh:mm:ss"), {T5424} (RFC 5424's timestamp as logger writes it,
microseconds and offset), {HOST} (a hostname: printable ASCII) and {LEN}
(RFC 6587's octet count, checked against the bytes that follow); {PID}
is the client's pid, not a pattern.  Those are what differ from run to
run; the rest is compared byte for byte, so a listener that got the
bytes in another order, split, joined or changed fails.  The same
templates hold for the run without the library (they are checked
against it first) and with it.
"""
import json
import os
import re
import sys

# No __pycache__ in the source tree (read-only under distcheck).
sys.dont_write_bytecode = True
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]
from compare import LEVELS, decoder_text  # noqa: E402
from journal_check import keyword, read_raw  # noqa: E402

SEVERITIES = "emerg alert crit err warning notice info debug".split()
FACILITIES = ("kern user mail daemon auth syslog lpr news uucp cron authpriv ftp "
              "ntp security console solaris-cron local0 local1 local2 local3 local4 "
              "local5 local6 local7").split()

# logger's RFC 5424 time quality element (isSynced: the test guest's
# clock is never synchronised).
TQ = b'[timeQuality tzKnown="1" isSynced="0"]'
TQ_EXTRAS = [("syslog.timeQuality.tzKnown", b"1"), ("syslog.timeQuality.isSynced", b"0")]
BLOB = b"a\nb\0c"


def ev(ident, sev, fac, msg, *extras):
    return (ident, sev, fac, msg, list(extras))


# name -> ([(socket, template)], [event]), in clients_run.sh's order.
CLIENTS = {
    "logger": (
        [("devlog", b"<156>{T3164} sh_logger: from logger")],
        [ev("sh_logger", 4, 19, b"from logger")]),
    "logger_5424": (
        [("devlog", b'<27>1 {T5424} {HOST} app5424 - ID47 ' + TQ +
          b'[exampleSDID@32473 iut="3" eventSource="Application" eventID="1011"] structured')],
        [ev("app5424", 3, 3, b"structured", ("syslog.msgid", b"ID47"), *TQ_EXTRAS,
            ("syslog.exampleSDID@32473.iut", b"3"), ("syslog.exampleSDID@32473.eventSource", b"Application"),
            ("syslog.exampleSDID@32473.eventID", b"1011"))]),
    "logger_udp": (
        [("udp514", b"<165>1 {T5424} {HOST} udp_logger - - " + TQ + b" over udp")],
        [ev("udp_logger", 5, 20, b"over udp", *TQ_EXTRAS)]),
    # Non-transparent framing: the message ends at the newline.
    "logger_tcp": (
        [("tcp514", b"<174>1 {T5424} {HOST} tcp_logger - - " + TQ + b" over tcp\n")],
        [ev("tcp_logger", 6, 21, b"over tcp", *TQ_EXTRAS)]),
    "logger_tcp_octets": (
        [("tcp601", b"{LEN} <171>1 {T5424} {HOST} tcp_octets - - " + TQ + b" octet counted")],
        [ev("tcp_octets", 3, 21, b"octet counted", *TQ_EXTRAS)]),
    # SysLogHandler: "<PRI>", its ident, the message, a NUL.
    "python_devlog": (
        [("devlog", b"<140>pyunix: python to dev log\0")],
        [ev("pyunix", 4, 17, b"python to dev log")]),
    # No ident, no tag: the event takes the program's name.
    "python_udp": (
        [("udp514", b"<140>python over udp\0")],
        [ev("python3", 4, 17, b"python over udp")]),
    # Sys::Syslog's own unix socket (setlogsock "unix"), write(2): a
    # newline and a NUL after the message.
    "perl": (
        [("devlog", b"<147>{T3164} perlsys[{PID}]: from perl 7\n\0")],
        [ev("perlsys", 3, 18, b"from perl 7")]),
    "c_journal": (
        [("journal", b"PRIORITY=4\nSYSLOG_FACILITY=20\nSYSLOG_IDENTIFIER=jnative\n"
          b"MESSAGE=native message\nMY_FIELD=custom value\nBLOB\n\5\0\0\0\0\0\0\0" + BLOB + b"\n")],
        [ev("jnative", 4, 20, b"native message", ("MY_FIELD", b"custom value"), ("BLOB", BLOB))]),
    "c_mmsg": (
        [("devlog", b"<165>mmsg_tag: first of three"),
         ("devlog", b"<166>mmsg_tag[42]: second of three"),
         ("devlog", b"<167>mmsg_tag: third of three")],
        [ev("mmsg_tag", 5, 20, b"first of three"),
         ev("mmsg_tag", 6, 20, b"second of three"),
         ev("mmsg_tag", 7, 20, b"third of three")]),
    "c_writev": (
        [("devlog", b"<131>wv_tag: by writev")],
        [ev("wv_tag", 3, 16, b"by writev")]),
    "c_write": (
        [("devlog", b"<134>wr_tag: by write"), ("devlog", b"<135>wr_tag: by send")],
        [ev("wr_tag", 6, 16, b"by write"), ev("wr_tag", 7, 16, b"by send")]),
}
# One call, one event: libsystemd's, GLib's and libc's datagrams of the
# calls the library catches make no event of their own.
JOURNAL_CALL = (
    [("journal", b"MESSAGE=one journal call\nPRIORITY=3\nSYSLOG_IDENTIFIER=clients_calls\n")],
    [ev("clients_calls", 3, 1, b"one journal call")])
GLIB_CALL = (
    [("journal", b"GLIB_OLD_LOG_API=1\nMESSAGE=one glib call\nPRIORITY=4\n"
      b"GLIB_DOMAIN=clientsdom\n")],
    [ev("clientsdom", 4, 1, b"one glib call", ("GLIB_DOMAIN", b"clientsdom"))])
SYSLOG_CALL = (
    [("devlog", b"<180>{T3164} callsid[{PID}]: one syslog call")],
    [ev("callsid", 4, 22, b"one syslog call")])
CLIENTS["c_calls"] = tuple(a + b + c for a, b, c in zip(JOURNAL_CALL, GLIB_CALL, SYSLOG_CALL))
CLIENTS["c_calls_nojournal"] = tuple(b + c for b, c in zip(GLIB_CALL, SYSLOG_CALL))

PATTERNS = {
    b"{T3164}": rb"[A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}",
    b"{T5424}": rb"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}[+-][0-9]{2}:[0-9]{2}",
    b"{HOST}": rb"[!-~]{1,255}",
    b"{LEN}": rb"(?P<len>[0-9]+)",
}


def matches(template, pid, data):
    """Whether data is template's bytes (see TEMPLATE)."""
    regex = b""
    for part in re.split(rb"(\{[A-Z0-9]+\})", template):
        if part in PATTERNS:
            regex += PATTERNS[part]
        elif part == b"{PID}":
            regex += str(pid).encode()
        else:
            regex += re.escape(part)
    m = re.fullmatch(regex, data, re.S)
    if not m:
        return False
    return "len" not in m.groupdict() or int(m["len"]) == len(data) - m.end("len") - 1


def read_runs(path):
    runs = []
    with open(path) as f:
        for line in f:
            name, pid, status = line.split()
            if name not in CLIENTS:
                raise SystemExit(f"{path}: unknown client {name}")
            runs.append((name, int(pid), int(status)))
    return runs


def check_datagrams(runs, path):
    want = {}
    for name, pid, _ in runs:
        for sock, template in CLIENTS[name][0]:
            want.setdefault(sock, []).append((name, pid, template))
    got = {}
    with open(path) as f:
        for line in f:
            sock, _, data = line.rstrip("\n").partition(" ")
            got.setdefault(sock, []).append(bytes.fromhex(data))
    bad = []
    for sock in sorted(set(want) | set(got)):
        w, g = want.get(sock, []), got.get(sock, [])
        if len(w) != len(g):
            bad.append(f"{sock}: expected {len(w)} datagrams or streams, got {len(g)}")
        for i, data in enumerate(g):
            if i >= len(w):
                bad.append(f"{sock} #{i}: extra: {data!r}")
                continue
            name, pid, template = w[i]
            if not matches(template, pid, data):
                bad.append(f"{sock} #{i} ({name}): expected {template!r}, got {data!r}")
        for name, _, template in w[len(g):]:
            bad.append(f"{sock}: missing ({name}): {template!r}")
    n = sum(len(v) for v in want.values())
    return bad, f"{n} datagrams and streams on {' '.join(sorted(want))}, each byte as expected"


def json_fields(e):
    """An expected event as tail --json's fields, meta aside, in order."""
    ident, sev, fac, msg, extras = e
    return ([("n", f"Syslog:{ident}"), ("message", decoder_text(msg)), ("severity", sev),
             ("facility", fac), ("errno", "*")] +
            [(k, decoder_text(v)) for k, v in extras])


def check_json_event(e, pid, act):
    bad = []
    want = json_fields(e)
    got = [(k, v) for k, v in act if k != "meta"]
    # Any errno: the clients' errno at the call is their own business.
    got = [(k, "*" if k == "errno" and re.fullmatch(r"[A-Z0-9]+\(-?\d+\)", str(v)) else v)
           for k, v in got]
    if got != want:
        bad.append(f"fields: expected {want!r}, got {got!r}")
    meta = dict(dict(act).get("meta", []))
    fac, sev = e[2], e[1]
    for k, v in (("level", LEVELS[sev]), ("keyword", hex(1 << fac)), ("tid", pid)):
        if meta.get(k) != v:
            bad.append(f"meta.{k}: expected {v!r}, got {meta.get(k)!r}")
    return bad


def check_raw_event(e, pid, act):
    ident, sev, fac, msg, extras = e
    fields = act[2]
    want = [("tracepoint", f"Syslog_L{LEVELS[sev]}K{keyword(fac):x}"), ("level", LEVELS[sev]),
            ("name", ident), ("message", msg), ("severity", sev), ("facility", fac)] + extras
    # Any errno (see check_json_event), but it is there, after facility.
    got = [f for f in fields if f[0] != "errno"]
    bad = [] if got == want else [f"fields: expected {want!r}, got {got!r}"]
    if [f[0] for f in fields[6:7]] != ["errno"]:
        bad.append(f"no errno after facility: {fields!r}")
    return bad


def text_line(e, pid):
    """The text tail prints after the time and host."""
    ident, sev, fac, msg, extras = e

    def esc(b):
        return decoder_text(b).replace("\\", "\\\\").replace("\n", "\\n").replace("\0", "\\0")
    line = f"{ident}[{pid}]: {FACILITIES[fac]}.{SEVERITIES[sev]} {esc(msg)}"
    if extras:
        line += " [" + " ".join(f'{k}="{esc(v)}"' for k, v in extras) + "]"
    return line


def check_events(runs, actual, tid_of, check_one, what):
    bad = []
    by_tid = {}
    for a in actual:
        by_tid.setdefault(tid_of(a), []).append(a)
    total = 0
    for name, pid, _ in runs:
        want, got = CLIENTS[name][1], by_tid.pop(pid, [])
        total += len(want)
        if len(want) != len(got):
            bad.append(f"{name} (pid {pid}): expected {len(want)} events, got {len(got)}")
        for i, (e, a) in enumerate(zip(want, got)):
            bad += [f"{name} #{i} ({e[3]!r}): {m}" for m in check_one(e, pid, a)]
        for a in got[len(want):]:
            bad.append(f"{name} (pid {pid}): extra: {a!r}")
        for e in want[len(got):]:
            bad.append(f"{name} (pid {pid}): missing: {e[0]} {e[3]!r}")
    for tid, events in by_tid.items():
        bad += [f"extra event of thread {tid}: {a!r}" for a in events]
    # The calls' events come from the calls; all the others from sockets.
    silent = [n for n, pid, _ in runs if not n.startswith("c_calls") and
              not any(m.startswith(f"{n} (pid {pid}): missing") for m in bad)]
    if bad and not silent:
        bad.append("no client's own datagram made any event: is the socket "
                   "interception (preload/socket.c) in the library?")
    return bad, f"{total} {what} of {len(runs)} client runs, every field as expected"


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("count", "datagrams", "json", "raw", "text"):
        raise SystemExit(__doc__)
    how, runs = sys.argv[1], read_runs(sys.argv[2])
    if how == "count":
        print(sum(len(CLIENTS[name][1]) for name, _, _ in runs))
        return 0
    if how == "datagrams":
        bad, ok = check_datagrams(runs, sys.argv[3])
    elif how == "json":
        with open(sys.argv[3], encoding="utf-8") as f:
            actual = [json.loads(line, object_pairs_hook=list) for line in f if line.strip()]
        bad, ok = check_events(runs, actual,
                               lambda a: dict(dict(a).get("meta", [])).get("tid"),
                               check_json_event, "events")
    elif how == "raw":
        bad, ok = check_events(runs, read_raw(sys.argv[3]), lambda a: a[1],
                               check_raw_event, "events")
    else:
        with open(sys.argv[3], encoding="utf-8", errors="replace") as f:
            # "TIME HOST ident[pid]: ...": the time and host go.
            actual = [line.rstrip("\n").split(" ", 2)[2] for line in f if line.strip()]

        def tid(line):
            m = re.match(r"[^\[ ]*\[([0-9]+)\]: ", line)
            return int(m[1]) if m else None
        bad, ok = check_events(runs, actual, tid,
                               lambda e, pid, a: [] if a == text_line(e, pid) else
                               [f"expected {text_line(e, pid)!r}, got {a!r}"], "text lines")
    for line in bad:
        print(f"clients_check {how}: {line}")
    if bad:
        return 1
    print(f"clients_check {how}: {ok}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
