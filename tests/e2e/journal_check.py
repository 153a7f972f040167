#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the journal calls' events (tests/e2e/journal.c's expectations)
field by field, read two ways:

  journal_check.py tail EXPECTED TAIL_JSON
      what `ehsyslog tail --json` printed (the project's decoder);
  journal_check.py raw EXPECTED INSTANCE_DIR
      the ftrace instance's ring buffers, read from trace_pipe_raw and
      decoded here from the EventHeader bytes, independently of the
      project's code: ring buffer pages here, event headers, metadata
      and payload in tests/lib/eventheader.py, per the kernel's and
      EventHeader's formats.

Every event must match exactly: tracepoint level and keyword, event
name, message bytes, severity, facility, errno, file and line when
expected, then the extra string fields, names, values and order, and no
other field; the writing thread.  The counts must be equal.  Exit 0 when
all match, 1 otherwise.
"""
import errno
import glob
import json
import os
import re
import struct
import sys

# No __pycache__ in the source tree (read-only under distcheck).
sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "lib")]
from compare import LEVELS, decoder_text  # noqa: E402
import eventheader as eh  # noqa: E402


def read_expected(path):
    events = []
    with open(path, "rb") as f:
        for line in f:
            parts = line.rstrip(b"\n").split(b"\t")
            ident, sev, fac, err, file, lno, tid, msg = parts[:8]
            extras = []
            for p in parts[8:]:
                name, _, value = p.partition(b"=")
                extras.append((name.decode(), bytes.fromhex(value.decode())))
            events.append({
                "ident": ident.decode(), "severity": int(sev), "facility": int(fac),
                "errno": int(err), "file": None if file == b"-" else file.decode(),
                "line": int(lno), "tid": int(tid), "message": bytes.fromhex(msg.decode()),
                "extras": extras,
            })
    return events


def keyword(fac):
    return 1 << fac if fac < 24 else 0


# ---- the independent decoder: ring buffer pages, then EventHeader ----

PAGE = 4096


def formats(inst):
    """event id -> (tracepoint name, offset of the EventHeader bytes)"""
    out = {}
    for path in glob.glob(os.path.join(inst, "events/user_events/*/format")):
        text = open(path).read()
        eid = int(re.search(r"^ID: (\d+)", text, re.M).group(1))
        at = re.search(r"field:u8 eventheader_flags;\s*offset:(\d+);", text)
        if at:
            out[eid] = (os.path.basename(os.path.dirname(path)), int(at.group(1)))
    return out


def pages(path):
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        while True:
            try:
                page = os.read(fd, PAGE)
            except BlockingIOError:
                return
            if not page:
                return
            yield page
    finally:
        os.close(fd)


def records(page):
    """(timestamp, data) of each data event of one page."""
    ts, commit = struct.unpack_from("<QQ", page, 0)
    end = 16 + (commit & 0xfffff)
    at = 16
    while at + 4 <= end:
        head, = struct.unpack_from("<I", page, at)
        kind, delta = head & 31, head >> 5
        if kind == 29:		# padding
            if delta == 0:
                return
            at += 4 + struct.unpack_from("<I", page, at + 4)[0]
        elif kind == 30:	# time extend
            ts += (struct.unpack_from("<I", page, at + 4)[0] << 27) + delta
            at += 8
        elif kind == 31:	# absolute time stamp
            ts = (struct.unpack_from("<I", page, at + 4)[0] << 27) | delta
            at += 8
        else:
            ts += delta
            if kind == 0:
                size, = struct.unpack_from("<I", page, at + 4)
                yield ts, page[at + 8:at + 4 + size]
                at += 4 + size
            else:
                yield ts, page[at + 4:at + 4 + 4 * kind]
                at += 4 + 4 * kind


def eventheader(tp, data, off):
    """One event as a list of (field name, value): name and level first."""
    try:
        ev = eh.parse(data, off)
    except ValueError as err:
        raise ValueError(f"{tp}: {err}") from None
    fields = [("tracepoint", tp), ("level", ev.level), ("name", ev.name)]
    for fname, enc, _fmt, value in ev.fields:
        if enc == eh.STRING16:
            fields.append((fname, value))
        elif enc in eh.SIZES:
            fields.append((fname, eh.value(enc, value)))
        else:
            raise ValueError(f"{tp}: encoding {enc} of {fname!r}")
    return fields


def read_raw(inst):
    fmts = formats(inst)
    out = []
    for path in sorted(glob.glob(os.path.join(inst, "per_cpu/cpu*/trace_pipe_raw"))):
        for page in pages(path):
            for ts, data in records(page):
                etype, = struct.unpack_from("<H", data, 0)
                if etype not in fmts:
                    continue
                tp, off = fmts[etype]
                pid, = struct.unpack_from("<i", data, 4)
                out.append((ts, pid, eventheader(tp, data, off)))
    out.sort(key=lambda e: e[0])
    return out


def check_raw(exp, act):
    _, pid, fields = act
    bad = []
    want = [("tracepoint", f"Syslog_L{LEVELS[exp['severity']]}K{keyword(exp['facility']):x}"),
            ("level", LEVELS[exp["severity"]]), ("name", exp["ident"]),
            ("message", exp["message"]), ("severity", exp["severity"]),
            ("facility", exp["facility"]), ("errno", exp["errno"])]
    if exp["file"] is not None:
        want += [("file", exp["file"].encode()), ("line", exp["line"])]
    want += exp["extras"]
    if fields != want:
        bad.append(f"fields: expected {want!r}, got {fields!r}")
    if pid != exp["tid"]:
        bad.append(f"pid: expected {exp['tid']}, got {pid}")
    return bad


# ---- the project's decoder, through tail --json ----

def errno_text(n):
    return f"{errno.errorcode.get(n, 'ERRNO') if n > 0 else 'ERRNO'}({n})"


def check_tail(exp, act):
    bad = []
    want = [("n", f"Syslog:{exp['ident']}"), ("message", decoder_text(exp["message"])),
            ("severity", exp["severity"]), ("facility", exp["facility"]),
            ("errno", errno_text(exp["errno"]))]
    if exp["file"] is not None:
        want += [("file", exp["file"]), ("line", exp["line"])]
    want += [(k, decoder_text(v)) for k, v in exp["extras"]]
    got = [(k, v) for k, v in act if k != "meta"]
    if got != want:
        bad.append(f"fields: expected {want!r}, got {got!r}")
    meta = dict(dict(act).get("meta", []))
    kw = keyword(exp["facility"])
    for k, v in (("level", LEVELS[exp["severity"]]), ("tid", exp["tid"]),
                 ("keyword", hex(kw) if kw else None)):
        if meta.get(k) != v:
            bad.append(f"meta.{k}: expected {v!r}, got {meta.get(k)!r}")
    return bad


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("tail", "raw"):
        raise SystemExit(__doc__)
    how, expected = sys.argv[1], read_expected(sys.argv[2])
    if how == "raw":
        actual, check = read_raw(sys.argv[3]), check_raw
    else:
        with open(sys.argv[3], encoding="utf-8") as f:
            actual = [json.loads(line, object_pairs_hook=list) for line in f if line.strip()]
        check = check_tail
    failures = []
    if len(actual) != len(expected):
        failures.append(f"count: expected {len(expected)} events, got {len(actual)}")
    for i, (e, a) in enumerate(zip(expected, actual)):
        failures += [f"#{i} ({e['message'][:40]!r}): {m}" for m in check(e, a)]
    for line in failures:
        print(f"journal_check {how}: {line}")
    if failures:
        return 1
    print(f"journal_check {how}: {len(expected)} events, every field as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
