#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the events of the GLib e2e program (tests/e2e/glib_calls.c)
twice: decoded here from perf.data by a decoder of our own, which shares
no code with the project (perf.data records and PERF_SAMPLE_RAW here,
the EventHeader header, metadata and payload in tests/lib/eventheader.py),
and as `ehsyslog decode --json` printed them.

usage: glib_check.py EXPECTED PERF.DATA DECODE.JSON IDS PID...

EXPECTED: the program's lines (glib_calls.h).  IDS: "name id" lines, the
user_events tracepoints' ids.  PID: the processes whose events these are,
in the order they ran (their expectations follow each other in
EXPECTED).  Every event must match exactly: tracepoint, event name,
every field in order with its encoding and bytes, the meta level; the
counts must be equal.  Exit 0 when all match, 1 otherwise.
"""
import json
import os
import struct
import sys

# No __pycache__ in the source tree (read-only under distcheck).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from eventheader import parse as eventheader_parse  # noqa: E402
from eventheader import VALUE8, VALUE16, VALUE32, STRING16, BINARY16  # noqa: E402

PROVIDER = "Syslog"
LEVELS = {0: 1, 1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 4, 7: 5}
FACILITY = 1  # LOG_USER: the program calls no openlog
ERRNO_FORMAT = 4

# perf_event_attr.sample_type bits, in the order their data appears.
SAMPLE_LAYOUT = [(1 << 16, "identifier", "Q"), (1 << 0, "ip", "Q"),
                 (1 << 1, "tid", "II"), (1 << 2, "time", "Q"),
                 (1 << 3, "addr", "Q"), (1 << 6, "id", "Q"),
                 (1 << 9, "stream_id", "Q"), (1 << 7, "cpu", "II"),
                 (1 << 8, "period", "Q")]
SAMPLE_READ, SAMPLE_CALLCHAIN, SAMPLE_RAW = 1 << 4, 1 << 5, 1 << 10
RECORD_SAMPLE = 9


def read_expected(path):
    out = []
    with open(path) as f:
        for line in f:
            sev, name, file, lno, err, msg, extras = line.rstrip("\n").split("\t")
            fields = [("message", STRING16, bytes.fromhex(msg)),
                      ("severity", VALUE8, bytes([int(sev)])),
                      ("facility", VALUE8, bytes([FACILITY])),
                      ("errno", VALUE32, struct.pack("<i", int(err)))]
            if file != "-":
                fields += [("file", STRING16, file.encode()),
                           ("line", VALUE32, struct.pack("<I", int(lno)))]
            for x in [] if extras == "-" else extras.split(","):
                key, val = x.split("=", 1)
                kind, hexval = val.split(":", 1)
                fields.append((key, BINARY16 if kind == "b" else STRING16,
                               bytes.fromhex(hexval)))
            out.append({"severity": int(sev), "name": name, "fields": fields})
    return out


def perf_samples(path):
    """(pid, tid, time, attr config, raw bytes) of every sample."""
    data = open(path, "rb").read()
    if data[:8] != b"PERFILE2":
        raise SystemExit(f"{path}: not a perf.data file")
    attr_size, = struct.unpack_from("<Q", data, 16)
    attrs_off, attrs_size, data_off, data_size = struct.unpack_from("<QQQQ", data, 24)
    by_id, attrs = {}, []
    for off in range(attrs_off, attrs_off + attrs_size, attr_size):
        config, = struct.unpack_from("<Q", data, off + 8)
        sample_type, = struct.unpack_from("<Q", data, off + 24)
        ids_off, ids_size = struct.unpack_from("<QQ", data, off + attr_size - 16)
        attrs.append((config, sample_type))
        for i in range(ids_off, ids_off + ids_size, 8):
            by_id[struct.unpack_from("<Q", data, i)[0]] = len(attrs) - 1
    samples = []
    off, end = data_off, data_off + data_size
    while off + 8 <= end:
        rtype, _misc, size = struct.unpack_from("<IHH", data, off)
        if size < 8:
            raise SystemExit(f"{path}: record of size {size} at {off}")
        if rtype == RECORD_SAMPLE:
            samples.append(parse_sample(data[off + 8:off + size], attrs, by_id))
        off += size
    return samples


def parse_sample(rec, attrs, by_id):
    # All attrs share sample_type (perf records them so).
    sample_type = attrs[0][1]
    if sample_type & (SAMPLE_READ | SAMPLE_CALLCHAIN):
        raise SystemExit("sample with read values or a call chain: not expected")
    v, at = {}, 0
    for bit, name, fmt in SAMPLE_LAYOUT:
        if sample_type & bit:
            v[name] = struct.unpack_from("<" + fmt, rec, at)
            at += struct.calcsize("<" + fmt)
    if not sample_type & SAMPLE_RAW:
        raise SystemExit("sample without raw data")
    raw_size, = struct.unpack_from("<I", rec, at)
    raw = rec[at + 4:at + 4 + raw_size]
    key = v.get("identifier", v.get("id", (None,)))[0]
    config = attrs[by_id[key] if key in by_id else 0][0]
    return {"pid": v["tid"][0], "tid": v["tid"][1], "time": v["time"][0],
            "config": config, "raw": raw}


def eventheader(raw):
    """Tracepoint-independent decoding of one user_events record: skips
    the 8 bytes of common fields, then reads the EventHeader event."""
    ev = eventheader_parse(raw, 8)
    if ev.version != 0:
        raise ValueError(f"header flags {ev.flags:#x} version {ev.version}")
    fields = []
    for fname, enc, fmt, value in ev.fields:
        if enc not in (VALUE8, VALUE16, VALUE32, STRING16, BINARY16):
            raise ValueError(f"field {fname!r}: encoding {enc}")
        if fname == "errno" and fmt != ERRNO_FORMAT:
            raise ValueError(f"errno's format is {fmt}")
        fields.append((fname, enc, value))
    # perf pads raw data to 8 bytes: nothing but padding may follow.
    if len(raw) - ev.end >= 8 or any(raw[ev.end:]):
        raise ValueError(f"{len(raw) - ev.end} bytes after the payload")
    return ev.name, ev.level, fields


def check_own(expected, samples, tracepoints, pids):
    bad = []
    mine = sorted((s for s in samples if s["pid"] in pids),
                  key=lambda s: (pids.index(s["pid"]), s["time"]))
    if len(mine) != len(expected):
        bad.append(f"perf.data: expected {len(expected)} events, got {len(mine)}")
    for i, (e, s) in enumerate(zip(expected, mine)):
        try:
            name, level, fields = eventheader(s["raw"])
        except (ValueError, struct.error) as err:
            bad.append(f"#{i}: not decodable: {err}")
            continue
        want_tp = f"{PROVIDER}_L{LEVELS[e['severity']]}K{1 << FACILITY:x}"
        if tracepoints.get(s["config"]) != want_tp:
            bad.append(f"#{i}: tracepoint {tracepoints.get(s['config'])}, expected {want_tp}")
        if name != e["name"]:
            bad.append(f"#{i}: name {name!r}, expected {e['name']!r}")
        if level != LEVELS[e["severity"]]:
            bad.append(f"#{i}: level {level}, expected {LEVELS[e['severity']]}")
        if fields != e["fields"]:
            bad.append(f"#{i}: fields\n  {fields}\nexpected\n  {e['fields']}")
    return bad


def json_value(enc, b):
    """What eh_decode_json prints for a field (the schema's encodings)."""
    if enc == VALUE8:
        return b[0]
    if enc == VALUE32:
        return None  # errno and line: compared by the caller
    if enc == BINARY16:
        return " ".join(f"{x:02x}" for x in b)
    return b.decode("utf-8")


def check_decoder(expected, decoded, pids):
    bad = []
    mine = sorted((d for d in decoded if d.get("meta", {}).get("pid") in pids),
                  key=lambda d: (pids.index(d["meta"]["pid"]), d["meta"].get("time", "")))
    if len(mine) != len(expected):
        bad.append(f"decode --json: expected {len(expected)} events, got {len(mine)}")
    for i, (e, d) in enumerate(zip(expected, mine)):
        keys = ["n"] + [f[0] for f in e["fields"]] + ["meta"]
        if list(d) != keys:
            bad.append(f"decode #{i}: keys {list(d)}, expected {keys}")
        if d.get("n") != f"{PROVIDER}:{e['name']}":
            bad.append(f"decode #{i}: n {d.get('n')!r}")
        for fname, enc, b in e["fields"]:
            got = d.get(fname)
            if fname == "errno":
                n = struct.unpack("<i", b)[0]
                if not (isinstance(got, str) and got.endswith(f"({n})")):
                    bad.append(f"decode #{i}: errno {got!r}, expected ...({n})")
            elif fname == "line":
                if got != struct.unpack("<I", b)[0]:
                    bad.append(f"decode #{i}: line {got!r}")
            elif got != json_value(enc, b):
                bad.append(f"decode #{i}: {fname} {got!r}, expected {json_value(enc, b)!r}")
        if d.get("meta", {}).get("level") != LEVELS[e["severity"]]:
            bad.append(f"decode #{i}: meta.level {d.get('meta', {}).get('level')}")
        if d.get("meta", {}).get("keyword") != hex(1 << FACILITY):
            bad.append(f"decode #{i}: meta.keyword {d.get('meta', {}).get('keyword')}")
    return bad


def main():
    if len(sys.argv) < 6:
        raise SystemExit(__doc__)
    expected = read_expected(sys.argv[1])
    samples = perf_samples(sys.argv[2])
    with open(sys.argv[3]) as f:
        decoded = [json.loads(line) for line in f if line.strip()]
    tracepoints = {}
    with open(sys.argv[4]) as f:
        for line in f:
            name, tid = line.split()
            tracepoints[int(tid)] = name
    pids = [int(p) for p in sys.argv[5:]]
    bad = check_own(expected, samples, tracepoints, pids)
    bad += check_decoder(expected, decoded, pids)
    for b in bad[:30]:
        print("glib_check:", b)
    if bad:
        return 1
    print(f"glib_check: {len(expected)} events, every field as expected, "
          "by our own perf.data decoder and by ehsyslog decode --json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
