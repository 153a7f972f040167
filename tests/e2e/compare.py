#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares the events a test program expected (tests/e2e/expect.h lines)
with what `ehsyslog tail --json` printed, field by field.

usage: compare.py [--provider P] EXPECTED ACTUAL

Every event must match exactly: the name ("Provider:ident"), message (the
decoder's representation of the expected bytes), severity, facility,
errno, file and line when expected (and absent otherwise), no other
field (but part 1 of N for a message longer than an event, which tail
prints whole), meta level and keyword from the schema, meta pid (the thread's process) and tid (the thread id the kernel
records); an expectation of "*" for errno, pid or tid: any value, for
programs that are not ours.  Events are matched in order within each thread;
when an expectation has no tid, in the order tail printed them.  The counts must be equal.  Exit 0 when all match, 1 otherwise.
"""
import errno
import json
import re
import sys

LEVELS = {0: 1, 1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 4, 7: 5}


def decoder_text(raw):
    """The text our decoder (and perf-decode) shows for these bytes:
    valid UTF-8 as itself, any other byte as the Latin-1 character."""
    out, i = [], 0
    while i < len(raw):
        for k in (1, 2, 3, 4):
            try:
                out.append(raw[i:i + k].decode("utf-8"))
                i += k
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(chr(raw[i]))
            i += 1
    return "".join(out)


def read_expected(path):
    events = []
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip(b"\n").split(b"\t")
            if len(parts) != 9:
                raise SystemExit(f"{path}:{n}: expected 9 fields, got {len(parts)}")
            ident, sev, fac, err, file, lno, pid, tid, hexmsg = parts
            raw = bytes.fromhex(hexmsg.decode())
            events.append({
                "ident": ident.decode(),
                "severity": int(sev),
                "facility": int(fac),
                "errno": None if err == b"*" else int(err),
                "file": None if file == b"-" else file.decode(),
                "line": int(lno),
                "pid": None if pid == b"*" else int(pid),
                "tid": None if tid == b"*" else int(tid),
                "raw": raw,
                "message": decoder_text(raw),
            })
    return events


def errno_text(n):
    name = errno.errorcode.get(n, "ERRNO") if n > 0 else "ERRNO"
    return f"{name}({n})"


def mismatches(exp, act, provider):
    """Differences between one expected and one actual event."""
    bad = []

    def check(what, want, got):
        if want != got:
            bad.append(f"{what}: expected {want!r}, got {got!r}")

    check("n", f"{provider}:{exp['ident']}", act.get("n"))
    check("message", exp["message"], act.get("message"))
    check("severity", exp["severity"], act.get("severity"))
    check("facility", exp["facility"], act.get("facility"))
    if exp["errno"] is not None:
        check("errno", errno_text(exp["errno"]), act.get("errno"))
    elif not re.fullmatch(r"[A-Z0-9]+\(\d+\)", str(act.get("errno"))):
        bad.append(f"errno: not an errno value: {act.get('errno')!r}")
    keys = {"n", "message", "severity", "facility", "errno", "meta"}
    if exp["file"] is not None:
        keys |= {"file", "line"}
        check("file", exp["file"], act.get("file"))
        check("line", exp["line"], act.get("line"))
    # A split message is one line, joined, without part and parts.
    check("fields", sorted(keys), sorted(act))
    meta = act.get("meta", {})
    check("meta.level", LEVELS[exp["severity"]], meta.get("level"))
    check("meta.keyword", hex(1 << exp["facility"]), meta.get("keyword"))
    # tail's meta pid is the thread's process (ehsyslog(1)), its tid the
    # thread the kernel recorded.
    if exp["pid"] is not None:
        check("meta.pid", exp["pid"], meta.get("pid"))
    if exp["tid"] is not None:
        check("meta.tid", exp["tid"], meta.get("tid"))
    return bad


def groups(events, key):
    out = {}
    for e in events:
        out.setdefault(key(e), []).append(e)
    return out


def short(s, n=120):
    s = repr(s)
    return s if len(s) <= n else s[:n] + "..."


def main():
    args = sys.argv[1:]
    provider = "Syslog"
    if len(args) == 4 and args[0] == "--provider":
        provider, args = args[1], args[2:]
    if len(args) != 2:
        raise SystemExit(__doc__)
    expected = read_expected(args[0])
    with open(args[1], encoding="utf-8") as f:
        actual = [json.loads(line) for line in f if line.strip()]

    failures = []
    if len(actual) != len(expected):
        failures.append(f"count: expected {len(expected)} events, got {len(actual)}")
    if all(e["tid"] is not None for e in expected):
        want = groups(expected, lambda e: e["tid"])
        got = groups(actual, lambda a: a.get("meta", {}).get("tid"))
        pairs = []
        for k in sorted(set(want) | set(got), key=str):
            w, g = want.get(k, []), got.get(k, [])
            if len(w) != len(g):
                failures.append(f"tid {k}: expected {len(w)} events, got {len(g)}")
                failures += [f"tid {k}: extra: {json.dumps(a)}" for a in g[len(w):]]
            pairs += [(f"tid {k} #{i}", e, a) for i, (e, a) in enumerate(zip(w, g))]
    else:
        pairs = [(f"#{i}", e, a) for i, (e, a) in enumerate(zip(expected, actual))]
        failures += [f"extra: {json.dumps(a)}" for a in actual[len(expected):]]
    for where, e, a in pairs:
        for m in mismatches(e, a, provider):
            failures.append(f"{where} ({short(e['message'], 60)}): {m}")

    if failures:
        for line in failures[:30]:
            print("compare:", short(line, 400))
        if len(failures) > 30:
            print(f"compare: ... {len(failures) - 30} more")
        return 1
    print(f"compare: {len(expected)} events, every field as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
